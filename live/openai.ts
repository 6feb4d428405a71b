// 真实模型的 provider：实现 s12 的 Provider.stream(input)，底下走 OpenAI 兼容的 Chat Completions 流式接口
// （POST {baseUrl}/chat/completions，stream: true，回来的是 server-sent events）。
// DeepSeek、本机的 Ollama / llama.cpp / vLLM、以及任何说这套协议的服务器都能接。
//
// 出错的约定（R4）：任何失败都抛一个说清发生了什么的 Error。s12 的 collectAssistantMessage 会把它变成
// stopReason "error" 的助手消息：已经收到的文字保留，后面接一行 "error: <这里的消息>"。provider 自己从不产出
// message_end "error"，所有失败只走这一条路。消息里从不出现密钥：任何要截短的文字都先打码再截（redact.ts）。
// 例外只有一个：模型发来的工具参数不成形，不算失败，交出一个调用并记下哪里不对（见 argumentProblem），
// 由 LiveToolRegistry 回给模型一条 "error: …" 结果，让它改了再调。
// 这里只管把一次请求串起来：发请求、认响应头、读流、两只表、把攒齐的调用定下来。请求怎么拼在 chat-request.ts，
// 流里的 chunk 怎么攒成回答在 chat-stream.ts，怎么引用服务器的原话在 quote.ts。
import type { Provider, ProviderEvent, ProviderInput, ToolCall } from "../s12_packages/code.ts";
import { type ChatRequest, toChatMessages, toChatTools, type RememberedCall } from "./chat-request.ts";
import { ChatStreamAssembler, mapFinishReason, parseArgumentText } from "./chat-stream.ts";
import { type ClockTimers, RequestClock } from "./clock.ts";
import { ENV, displayUrl } from "./config.ts";
import { serverErrorText } from "./quote.ts";
import { maskSecret } from "./redact.ts";
import { SseDecoder } from "./sse.ts";

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

/** 拼在 HTTP 错误后面的提示：最可能是哪个环境变量没设对。 */
function httpHint(status: number, retryAfter: string | null): string {
  if (status === 401 || status === 403) return " (check MINI_PI_API_KEY, and that this key may use MINI_PI_MODEL)";
  if (status === 404) return " (check MINI_PI_BASE_URL — it should end at /v1 — and MINI_PI_MODEL)";
  if (status === 429) return ` (rate limited or out of quota; try again${retryAfter === null ? " later" : ` in ${retryAfter} s`})`;
  if (status >= 500) return " (the server failed; try again later)";
  return "";
}


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
      const parsed = parseArgumentText(partial.name, partial.arguments, assembler.finishReason, this.options.apiKey);
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
