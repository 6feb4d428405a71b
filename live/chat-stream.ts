// 收回来的流：一块块 Chat Completions chunk 攒成一段回答（文字随到随交、工具调用按 index 拼齐、思考过程按字段名攒），
// 工具参数的文字解析成 ToolCall.input，finish_reason 换成 StopReason。流里的每块 JSON 和工具参数都先过 zod。
// 服务器说错了、不是 JSON、形状不对都抛错（provider 把它变成 stopReason error 的助手消息）；工具参数不成形不抛，
// 交出一句给模型看的话（parseArgumentText）。
import { z } from "zod";
import type { StopReason } from "../s12_packages/code.ts";
import { type Reasoning, REASONING_FIELDS } from "./chat-request.ts";
import { excerpt, serverErrorText } from "./quote.ts";
import { maskSecret } from "./redact.ts";
import type { SseMessage } from "./sse.ts";

const ToolCallDeltaSchema = z.object({
  index: z.number().int().nonnegative().optional(),
  id: z.string().nullish(),
  function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});

/**
 * 流里的一块（chunk）。只校验用得到的字段，其余的（role、usage……）一律不管。思考过程的两个字段不校验形状：
 * 各家写法不一（有的是字符串，有的带 null，个别代理给对象），只收字符串，别的当没有，不为它判整个流坏了。
 */
const ChunkSchema = z.object({
  choices: z
    .array(
      z.object({
        index: z.number().optional(),
        delta: z
          .object({
            content: z.string().nullish(),
            tool_calls: z.array(ToolCallDeltaSchema).nullish(),
            reasoning_content: z.unknown().optional(),
            reasoning: z.unknown().optional(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  error: z.unknown().optional(),
});

/** 模型给的工具参数：一个 JSON 对象。值应当都是字符串；数字、布尔值照字面转成字符串，别的（对象、数组、null）不收。 */
const ArgumentsSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));

/** 解析工具参数的结果：成了是 ToolCall.input；不成就是一句给模型看的话，说清错在哪、收到的是什么。 */
export type ParsedArguments = { ok: true; input: Record<string, string> } | { ok: false; problem: string };

/** 坏参数的 error 结果末尾那句：告诉模型怎么改。 */
const RETRY_HINT = "call the tool again with a JSON object of strings";

/** 把一次调用的参数文字解析成 ToolCall.input。不抛错：坏参数要回给模型重来，不是这一轮的终点。 */
export function parseArgumentText(name: string, raw: string, finishReason?: string, secret?: string): ParsedArguments {
  const where = `invalid arguments for tool "${name}"`;
  const received = `received ${excerpt(raw, secret)}`;
  let value: unknown;
  try {
    value = raw.trim() === "" ? {} : JSON.parse(raw);
  } catch (error) {
    const cut = finishReason === "length" ? " — the answer hit the length limit, so they were probably cut off" : "";
    const why = error instanceof Error ? error.message : String(error);
    return { ok: false, problem: `${where}: not valid JSON (${maskSecret(why, secret)}); ${received}${cut}; ${RETRY_HINT}` };
  }
  const parsed = ArgumentsSchema.safeParse(value);
  if (!parsed.success) {
    return { ok: false, problem: `${where}: expected a JSON object of strings; ${received}; ${RETRY_HINT}` };
  }
  return { ok: true, input: Object.fromEntries(Object.entries(parsed.data).map(([key, v]) => [key, String(v)])) };
}


/** 一段回答里正在拼的一个调用：id、名字、参数文字都可能分好几块到达。 */
type PartialCall = { id: string; name: string; arguments: string };

/**
 * 把一块块 chunk 攒成一段回答：文字随到随交出去，工具调用攒齐了在最后一起交。
 * 调用按 chunk 里的 index 归位（同一个调用的参数可以分在很多块里，几个调用可以交错到达）；没有 index 的服务器按 id 归位。
 */
export class ChatStreamAssembler {
  private readonly calls = new Map<number, PartialCall>();
  /** 收到 data: [DONE] 了。 */
  done = false;
  /** 服务器说的结束原因（最后一块里的 finish_reason）。 */
  finishReason: string | undefined;
  /** 这段回答的思考过程，按字段名分开攒（出现过的字段才有，哪怕内容是空串）。 */
  readonly reasoning: Reasoning = {};

  /** secret：引用坏数据时先打码用的密钥。 */
  constructor(private readonly secret?: string) {}

  /** 收下一个 SSE 事件，交出其中的文字片段。出错（服务器报错、不是 JSON、形状不对）就抛。 */
  accept(message: SseMessage): string[] {
    const secret = this.secret;
    if (message.event === "error") throw new Error(`the server reported an error mid-stream: ${serverErrorText(message.data, secret)}`);
    if (message.event !== "message") return []; // 别的具名事件（如 ping）不是回答的一部分
    if (message.data.trim() === "[DONE]") {
      this.done = true;
      return [];
    }
    let json: unknown;
    try {
      json = JSON.parse(message.data);
    } catch {
      throw new Error(`malformed stream: an event's data is not JSON: ${excerpt(message.data, secret)}`);
    }
    const chunk = ChunkSchema.safeParse(json);
    if (!chunk.success) {
      const issue = chunk.error.issues[0];
      throw new Error(`malformed stream: unexpected chunk (${issue?.path.join(".") || "chunk"}: ${issue?.message ?? "invalid"}): ${excerpt(message.data, secret)}`);
    }
    if (chunk.data.error !== undefined) {
      throw new Error(`the server reported an error mid-stream: ${serverErrorText(JSON.stringify(json), secret)}`);
    }
    const choice = chunk.data.choices?.find((c) => (c.index ?? 0) === 0);
    if (choice === undefined) return []; // 比如只带 usage 的最后一块
    if (choice.finish_reason !== undefined && choice.finish_reason !== null) this.finishReason = choice.finish_reason;
    for (const delta of choice.delta?.tool_calls ?? []) this.acceptToolCall(delta);
    for (const field of REASONING_FIELDS) {
      const piece = choice.delta?.[field];
      if (typeof piece === "string") this.reasoning[field] = (this.reasoning[field] ?? "") + piece;
    }
    const text = choice.delta?.content;
    return text === undefined || text === null || text === "" ? [] : [text];
  }

  private acceptToolCall(delta: z.infer<typeof ToolCallDeltaSchema>): void {
    const id = delta.id ?? undefined;
    let slot = delta.index;
    if (slot === undefined) {
      const byId = id === undefined ? undefined : [...this.calls].find(([, c]) => c.id === id)?.[0];
      const last = Math.max(-1, ...this.calls.keys());
      slot = byId ?? (id !== undefined || last === -1 ? last + 1 : last);
    }
    const call = this.calls.get(slot) ?? { id: "", name: "", arguments: "" };
    this.calls.set(slot, call);
    if (id !== undefined && call.id === "") call.id = id;
    const name = delta.function?.name;
    if (name !== undefined && name !== null && name !== call.name) call.name += name; // 有的服务器每块重复整名，有的分段给
    call.arguments += delta.function?.arguments ?? "";
  }

  /** 攒齐的调用，按 index 排好。 */
  partialCalls(): PartialCall[] {
    return [...this.calls].sort(([a], [b]) => a - b).map(([, call]) => ({ ...call }));
  }

  /** 已经想出了点什么（思考字段里有非空的文字）。 */
  isThinking(): boolean {
    return REASONING_FIELDS.some((field) => (this.reasoning[field] ?? "") !== "");
  }

  /** 思考过程一共多少字（各字段加起来）。 */
  reasoningChars(): number {
    return REASONING_FIELDS.reduce((sum, field) => sum + [...(this.reasoning[field] ?? "")].length, 0);
  }
}

/**
 * finish_reason → StopReason。要了工具就是 "toolUse"（有的服务器要了工具却写 "stop"）；
 * 其余一律 "stop"，但 "length"（被长度上限截断）和 content_filter 等不寻常的原因，会在文字末尾加一行说明。
 */
export function mapFinishReason(reason: string | undefined, hasCalls: boolean): { stopReason: StopReason; note?: string } {
  if (hasCalls) return { stopReason: "toolUse" };
  if (reason === undefined || reason === "stop" || reason === "tool_calls" || reason === "function_call") return { stopReason: "stop" };
  if (reason === "length") return { stopReason: "stop", note: '\n[truncated: the answer hit the length limit (finish_reason "length")]' };
  return { stopReason: "stop", note: `\n[stopped early: finish_reason "${reason}"]` };
}
