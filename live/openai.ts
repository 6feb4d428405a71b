// 真实模型的 provider：实现 s12 的 Provider.stream(input)，底下走 OpenAI 兼容的 Chat Completions 流式接口
// （POST {baseUrl}/chat/completions，stream: true，回来的是 server-sent events）。
// DeepSeek、本机的 Ollama / llama.cpp / vLLM、以及任何说这套协议的服务器都能接。
//
// 出错的约定（R4）：任何失败都抛一个说清发生了什么的 Error。s12 的 collectAssistantMessage 会把它变成
// stopReason "error" 的助手消息：已经收到的文字保留，后面接一行 "error: <这里的消息>"。provider 自己从不产出
// message_end "error"，所有失败只走这一条路。消息里从不出现密钥：任何要截短的文字都先打码再截（redact.ts）。
// 例外只有一个：模型发来的工具参数不成形，不算失败，交出一个调用并记下哪里不对（见 argumentProblem），
// 由 LiveToolRegistry 回给模型一条 "error: …" 结果，让它改了再调。
import { z } from "zod";
import type { Provider, ProviderEvent, ProviderInput, ProviderMessage, StopReason, ToolCall, ToolSpec } from "../s12_packages/code.ts";
import { type ClockTimers, RequestClock } from "./clock.ts";
import { ENV, displayUrl } from "./config.ts";
import { maskSecret, shorten } from "./redact.ts";
import { SseDecoder, type SseMessage } from "./sse.ts";

// ── 发出去的请求 ──────────────────────────────────────────
/** 请求里的一次工具调用：挂在助手消息上，tool 消息靠 id 对回它。 */
export type ChatToolCall = { id: string; type: "function"; function: { name: string; arguments: string } };

/**
 * 一段回答的思考过程，按服务器用的字段名原样存：DeepSeek 写 reasoning_content，Ollama（以及新版 vLLM、OpenRouter）
 * 写 reasoning。回传时用同一个字段名，服务器才认得。
 */
export type Reasoning = { reasoning_content?: string; reasoning?: string };

/** 思考过程可能出现在哪些字段里。 */
export const REASONING_FIELDS = ["reasoning_content", "reasoning"] as const;

/** 请求里的一条消息。 */
export type ChatMessage =
  | { role: "system" | "user"; content: string }
  | ({ role: "assistant"; content: string | null; tool_calls?: ChatToolCall[] } & Reasoning)
  | { role: "tool"; tool_call_id: string; content: string };

/** provider 记得的一次调用：调用本身，和发出它的那段回答的思考过程（同一段回答的几个调用共用一份）。 */
export type RememberedCall = { call: ChatToolCall; reasoning?: Reasoning };

/** 请求里的一个工具：ToolSpec 的参数全是必填的字符串，和 ToolRegistry.run 的校验一致。 */
export type ChatTool = {
  type: "function";
  function: {
    name: string;
    description: string;
    parameters: {
      type: "object";
      properties: Record<string, { type: "string"; description: string }>;
      required: string[];
      additionalProperties: false;
    };
  };
};

export type ChatRequest = { model: string; messages: ChatMessage[]; stream: true; tools?: ChatTool[] };

/** ToolSpec → function 定义。 */
export function toChatTools(specs: ToolSpec[]): ChatTool[] {
  return specs.map((spec) => ({
    type: "function",
    function: {
      name: spec.name,
      description: spec.description,
      parameters: {
        type: "object",
        properties: Object.fromEntries(Object.entries(spec.input).map(([name, description]) => [name, { type: "string", description }])),
        required: Object.keys(spec.input),
        additionalProperties: false,
      },
    },
  }));
}

/**
 * 课程的消息 → Chat Completions 的消息。
 *
 * 课程的 AssistantMessage 只存文字，不存它要过哪些工具；OpenAI 却要求 tool 消息前面紧挨着一条带 tool_calls 的
 * 助手消息。做法：provider 记住自己发出过的每个调用（按 id，见 OpenAICompatibleProvider），这里每遇到一段连续的
 * toolResult，就按它们的 toolCallId 把调用找回来，挂到紧挨在前面的那条助手消息上（前面不是助手消息就补一条空的）。
 * 找不回来的结果（历史来自别的 provider，或者换过 provider 实例）不能当 tool 消息发，改成一条 user 消息说明来历。
 *
 * 思考过程跟着调用一起找回来，挂到同一条助手消息上：DeepSeek 的思考模式要求带 tool_calls 的助手消息原样带回它的
 * reasoning_content，否则回 400；Ollama 把 reasoning 字段转成模型模板里的 thinking。没调工具的回答不回传思考过程：
 * DeepSeek 的文档说那时传了也被忽略（旧的 deepseek-reasoner 甚至会报 400）。
 */
export function toChatMessages(input: ProviderInput, recall: (toolCallId: string) => RememberedCall | undefined): ChatMessage[] {
  const out: ChatMessage[] = [];
  if (input.systemPrompt !== "") out.push({ role: "system", content: input.systemPrompt });
  const messages = input.messages;
  for (let i = 0; i < messages.length; ) {
    const message = messages[i];
    if (message.role !== "toolResult") {
      out.push({ role: message.role, content: message.content });
      i++;
      continue;
    }
    const run: Array<Extract<ProviderMessage, { role: "toolResult" }>> = [];
    while (i < messages.length) {
      const m = messages[i];
      if (m.role !== "toolResult") break;
      run.push(m);
      i++;
    }
    const known = run.flatMap((r) => {
      const remembered = recall(r.toolCallId);
      return remembered === undefined ? [] : [{ ...remembered, result: r }];
    });
    if (known.length > 0) {
      const before = out.at(-1);
      const calls = known.map((k) => k.call);
      let carrier: Extract<ChatMessage, { role: "assistant" }>;
      if (before?.role === "assistant" && before.tool_calls === undefined) {
        carrier = before;
        carrier.tool_calls = calls;
        if (carrier.content === "") carrier.content = null;
      } else {
        carrier = { role: "assistant", content: null, tool_calls: calls };
        out.push(carrier);
      }
      Object.assign(carrier, known.find((k) => k.reasoning !== undefined)?.reasoning);
      for (const { result } of known) out.push({ role: "tool", tool_call_id: result.toolCallId, content: result.content });
    }
    for (const r of run) {
      if (known.some((k) => k.result === r)) continue;
      out.push({ role: "user", content: `Result of an earlier tool call (${r.toolCallId}):\n${r.content}` });
    }
  }
  return out;
}

// ── 收回来的流 ────────────────────────────────────────────
/** 服务器报错的几种写法：{error: {message}}、{error: "…"}、{message}、{detail}。 */
const ErrorBodySchema = z.union([
  z.object({ error: z.union([z.string(), z.object({ message: z.string() })]) }),
  z.object({ message: z.string() }),
  z.object({ detail: z.string() }),
]);

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

/** 错误说明里最多引多少个字符的服务器原话。 */
export const ERROR_TEXT_CHARS = 300;
/** 引一段坏数据（不是 JSON 的 data 行、不成形的工具参数）最多引多少个字符。 */
export const EXCERPT_CHARS = 120;

/**
 * 从服务器的错误正文里挑出给人看的那句话；挑不出就用正文本身（压成一行，截短）。
 * 先打码再做别的：服务器的错误页常常回显请求头，密钥要是跨在截断处，先截就只剩半截，认不出来了。
 */
export function serverErrorText(body: string, secret?: string): string {
  const masked = maskSecret(body, secret);
  let parsed: unknown;
  try {
    parsed = JSON.parse(masked);
  } catch {
    parsed = undefined;
  }
  const known = ErrorBodySchema.safeParse(parsed);
  let text = masked;
  if (known.success) {
    const data = known.data;
    text = "error" in data ? (typeof data.error === "string" ? data.error : data.error.message) : "message" in data ? data.message : data.detail;
  }
  text = maskSecret(text, secret).replace(/\s+/g, " ").trim(); // JSON 里转义过的密钥，解出来以后再打一遍
  if (text === "") return "(no error text)";
  return shorten(text, ERROR_TEXT_CHARS);
}

/** 引一段不可信的文字：先打码，再截短，再加引号（JSON 转义让换行、控制字符都看得见）。 */
export function excerpt(text: string, secret?: string): string {
  const chars = [...maskSecret(text, secret)];
  const quoted = JSON.stringify(chars.slice(0, EXCERPT_CHARS).join(""));
  return chars.length > EXCERPT_CHARS ? `${quoted}…` : quoted;
}

/** 拼在 HTTP 错误后面的提示：最可能是哪个环境变量没设对。 */
function httpHint(status: number, retryAfter: string | null): string {
  if (status === 401 || status === 403) return " (check MINI_PI_API_KEY, and that this key may use MINI_PI_MODEL)";
  if (status === 404) return " (check MINI_PI_BASE_URL — it should end at /v1 — and MINI_PI_MODEL)";
  if (status === 429) return ` (rate limited or out of quota; try again${retryAfter === null ? " later" : ` in ${retryAfter} s`})`;
  if (status >= 500) return " (the server failed; try again later)";
  return "";
}

/** 解析工具参数的结果：成了是 ToolCall.input；不成就是一句给模型看的话，说清错在哪、收到的是什么。 */
export type ParsedArguments = { ok: true; input: Record<string, string> } | { ok: false; problem: string };

/** 坏参数的 error 结果末尾那句：告诉模型怎么改。 */
const RETRY_HINT = "call the tool again with a JSON object of strings";

/** 把一次调用的参数文字解析成 ToolCall.input。不抛错：坏参数要回给模型重来，不是这一轮的终点。 */
export function parseArguments(name: string, raw: string, finishReason?: string, secret?: string): ParsedArguments {
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

// ── provider ──────────────────────────────────────────────
export type OpenAIProviderOptions = {
  /** 到 /v1 为止，如 http://127.0.0.1:11434/v1。 */
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  /** 空闲超时，毫秒：离上一个字节（含保活注释）多久没动静就算超时。 */
  timeoutMs: number;
  /** 一次请求从发出到读完的总时长上限，毫秒；不设就不限。 */
  totalTimeoutMs?: number;
  /** 外面喊停（比如 Ctrl+C）。 */
  signal?: AbortSignal;
  /** 两只表靠什么计时；不给就是真的时间（测试给一只假表）。 */
  timers?: ClockTimers;
  /** 一段回答开始思考时叫一声（每段回答最多一次）：思考型模型可能半天不出字，让用户知道它没卡住。 */
  onThinking?: () => void;
};

/** 错误正文最多读这么多字节：够看清原因，又不会被一个巨大的错误页拖住。 */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

async function readLimited(response: Response, clock: RequestClock): Promise<string> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < MAX_ERROR_BODY_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      clock.touch();
      parts.push(value);
      size += value.byteLength;
    }
  } catch {
    // 错误正文读到一半断了：有多少用多少
  } finally {
    reader.cancel().catch(() => undefined);
  }
  // 这里按字节截断，密钥可能被切成半截；之后的 serverErrorText 会把够长的半截（密钥的开头）也打上码
  return new TextDecoder().decode(Buffer.concat(parts).subarray(0, MAX_ERROR_BODY_BYTES));
}

/** 网络层错误的原因：undici 把真正的原因（ECONNREFUSED、other side closed……）放在 cause 里。 */
function networkReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error) return `${message} (${cause.message})`;
  return message;
}

/** 回答里什么都没有（没有文字、没有调用）时说清楚，别让用户对着一个空行以为答完了。 */
function noAnswer(reasoningChars: number, finishReason: string | undefined): Error {
  const why = finishReason === undefined ? "" : `; finish_reason "${finishReason}"`;
  const length = finishReason === "length" ? ": it ran out of output length while still thinking" : "";
  if (reasoningChars > 0) return new Error(`the model only reasoned and gave no answer (${reasoningChars} characters of reasoning${why}${length})`);
  return new Error(`the model sent an empty answer (no text and no tool calls${why})`);
}

/**
 * OpenAI 兼容的流式 provider。它记得自己在这个实例里发出过的每个工具调用（按 id），连同发出它的那段回答的思考过程，
 * 下一次请求时用来补回助手消息上的 tool_calls 和 reasoning（见 toChatMessages）。服务器给的 id 若重复
 * （有的服务器每段回答都从 call_0 数起）或者没给，就换一个这个实例里唯一的 id，调用和结果两边用的都是换过的 id。
 */
export class OpenAICompatibleProvider implements Provider {
  private readonly remembered = new Map<string, RememberedCall>();
  private readonly problems = new Map<string, string>();
  readonly endpoint: string;

  constructor(private readonly options: OpenAIProviderOptions) {
    const url = new URL(options.baseUrl);
    url.pathname = `${url.pathname.replace(/\/+$/, "")}/chat/completions`;
    this.endpoint = url.href;
  }

  /** 这个调用的参数不成形时，给模型看的那句话（LiveToolRegistry 拿它回一条 error 结果）；参数没问题是 undefined。 */
  argumentProblem(callId: string): string | undefined {
    return this.problems.get(callId);
  }

  /** 这次请求的正文。 */
  buildRequest(input: ProviderInput): ChatRequest {
    const request: ChatRequest = {
      model: this.options.model,
      messages: toChatMessages(input, (id) => this.remembered.get(id)),
      stream: true,
    };
    if (input.tools.length > 0) request.tools = toChatTools(input.tools);
    return request;
  }

  async *stream(input: ProviderInput): AsyncGenerator<ProviderEvent> {
    try {
      yield* this.streamUnsafe(input);
    } catch (error) {
      // 各处已经先打码再截短；这里整句再打一遍，兜住没经过那些地方的文字（比如网络层的报错）
      throw new Error(maskSecret(error instanceof Error ? error.message : String(error), this.options.apiKey));
    }
  }

  private async *streamUnsafe(input: ProviderInput): AsyncGenerator<ProviderEvent> {
    const { timeoutMs, totalTimeoutMs, signal: outside, apiKey: secret, timers } = this.options;
    const clock = new RequestClock({ idleMs: timeoutMs, totalMs: totalTimeoutMs }, { idle: ENV.timeoutMs, total: ENV.totalTimeoutMs }, outside, timers);
    // 请求被中止时，fetch 和读流抛的都是 AbortError，看不出是谁喊停的；按信号说清楚。
    const stopped = (): Error | undefined => {
      if (outside?.aborted === true) return new Error("request aborted");
      if (clock.expired !== undefined) return new Error(clock.expired);
      return undefined;
    };

    try {
      const body = await this.open(input, clock, stopped);
      yield { type: "message_start" };
      const assembler = new ChatStreamAssembler(secret);
      const { received, answered } = yield* this.readAnswer(body, assembler, clock, stopped);
      // 没等到 [DONE]：若 finish_reason 已经到了，回答其实是完整的（有的服务器不写 [DONE]），照常收尾；否则是半截。
      if (!assembler.done && assembler.finishReason === undefined) {
        throw new Error(`the stream ended before [DONE] after ${received} bytes: the server closed the connection mid-answer`);
      }

      if (!answered && assembler.partialCalls().length === 0) throw noAnswer(assembler.reasoningChars(), assembler.finishReason);
      const calls = this.settleCalls(assembler);
      const { stopReason, note } = mapFinishReason(assembler.finishReason, calls.length > 0);
      if (note !== undefined) yield { type: "text_delta", text: note };
      for (const call of calls) yield { type: "tool_call", call };
      yield { type: "message_end", stopReason };
    } finally {
      clock.stop();
    }
  }

  /** 读响应体，把 SSE 消息交给 assembler，文字一到就交出去；读完或等到 [DONE] 为止。交回收到多少字节、有没有文字。 */
  private async *readAnswer(
    body: ReadableStream<Uint8Array>,
    assembler: ChatStreamAssembler,
    clock: RequestClock,
    stopped: () => Error | undefined,
  ): AsyncGenerator<ProviderEvent, { received: number; answered: boolean }> {
    const decoder = new SseDecoder();
    const reader = body.getReader();
    let received = 0;
    let answered = false;
    let thinking = false;
    try {
      while (!assembler.done) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch (error) {
          throw stopped() ?? new Error(`connection lost after ${received} bytes: ${networkReason(error)}`);
        }
        if (!chunk.done) {
          received += chunk.value.byteLength;
          clock.touch(); // 任何字节都算动静，保活注释也是
        }
        for (const message of chunk.done ? decoder.end() : decoder.push(chunk.value)) {
          for (const text of assembler.accept(message)) {
            answered = true;
            yield { type: "text_delta", text };
          }
          if (!thinking && assembler.isThinking()) {
            thinking = true;
            this.options.onThinking?.();
          }
          if (assembler.done) break;
        }
        if (chunk.done) break;
      }
    } finally {
      reader.cancel().catch(() => undefined);
    }
    return { received, answered };
  }

  /** 发出请求，等来响应头，确认回来的是一条流；不是（HTTP 错误、JSON、HTML 页）就读一段正文说清原因并抛错。 */
  private async open(input: ProviderInput, clock: RequestClock, stopped: () => Error | undefined): Promise<ReadableStream<Uint8Array>> {
    const secret = this.options.apiKey;
    const where = displayUrl(this.endpoint);
    const headers: Record<string, string> = { "content-type": "application/json", accept: "text/event-stream" };
    if (secret !== undefined) headers.authorization = `Bearer ${secret}`;
    let response: Response;
    try {
      response = await fetch(this.endpoint, { method: "POST", headers, body: JSON.stringify(this.buildRequest(input)), signal: clock.signal });
    } catch (error) {
      throw stopped() ?? new Error(`cannot reach ${where}: ${networkReason(error)}`);
    }
    clock.touch();

    if (!response.ok) {
      const body = await readLimited(response, clock);
      throw stopped() ?? new Error(`HTTP ${response.status} ${response.statusText}`.trim() + `: ${serverErrorText(body, secret)}${httpHint(response.status, response.headers.get("retry-after"))}`);
    }
    const type = response.headers.get("content-type") ?? "";
    if (!type.includes("text/event-stream") && /json|html/.test(type)) {
      const body = await readLimited(response, clock);
      throw stopped() ?? new Error(`expected a streamed answer (text/event-stream) from ${where}, got ${type}: ${serverErrorText(body, secret)}`);
    }
    if (response.body === null) throw new Error(`the server at ${where} sent an empty response`);
    return response.body;
  }

  /**
   * 攒齐的调用定下来：换成唯一的 id，解析参数，连同这段回答的思考过程记下（下次请求补回去）。
   * 参数不成形的调用照样交出去（input 为 {}），哪里不对记在 problems 里，由 LiveToolRegistry 回给模型。
   */
  private settleCalls(assembler: ChatStreamAssembler): ToolCall[] {
    const reasoning = Object.keys(assembler.reasoning).length > 0 ? { ...assembler.reasoning } : undefined;
    return assembler.partialCalls().map((partial, n) => {
      if (partial.name === "") throw new Error(`the model sent tool call #${n + 1} without a function name`);
      const id = this.uniqueId(partial.id);
      const parsed = parseArguments(partial.name, partial.arguments, assembler.finishReason, this.options.apiKey);
      // 坏参数原样回传，Ollama 会因为解析不了而把整个请求回 400；历史里记成 {}，收到的原文写在 error 结果里给模型看
      const args = parsed.ok ? (partial.arguments.trim() === "" ? "{}" : partial.arguments) : "{}";
      this.remembered.set(id, { call: { id, type: "function", function: { name: partial.name, arguments: args } }, reasoning });
      if (!parsed.ok) this.problems.set(id, parsed.problem);
      return { id, name: partial.name, input: parsed.ok ? parsed.input : {} };
    });
  }

  /** 服务器给的 id；没给（空）或者这个实例里已经用过，就换一个没用过的。 */
  private uniqueId(id: string): string {
    if (id !== "" && !this.remembered.has(id)) return id;
    for (let n = id === "" ? 1 : 2; ; n++) {
      const candidate = id === "" ? `call_${n}` : `${id}_${n}`;
      if (!this.remembered.has(candidate)) return candidate;
    }
  }
}
