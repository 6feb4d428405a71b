// 照剧本回答的模型，写成 Pi 1.6.0 的流：驱动真实 Pi 的代码只有这一份。保真对照的循环剧本（pi-loop.ts）、机制剧本
// （pi-mechanisms.ts）、pi-coding-agent 的会话（pi-session.ts，毕业练习也用它）和 npm run bench 的 Pi 一侧（pi-bench.ts）
// 都把模型换成这里的 streamAnswer / streamReply，不联网。流建在 pi-ai 的 createAssistantMessageEventStream 上，
// 事件的先后照真实 provider 的做法：partial 是同一个对象，边收边往里添，文字块的 text 随每个增量变长。
// 只用 pi-agent-core 和 pi-ai：课程自己的 Node（bench）和 Node 24 子进程（对照、毕业检查）都加载得了。

import type { AgentMessage } from "@earendil-works/pi-agent-core";
import {
  type AssistantMessage,
  type AssistantMessageEventStream,
  createAssistantMessageEventStream,
  type JsonObject,
  type Message,
  type Model,
  type StopReason,
  type TextContent,
  type ToolCall,
  type Usage,
} from "@earendil-works/pi-ai";
import type { ModelStop, Reply } from "./scenarios.ts";
export { EXHAUSTED } from "./scenarios.ts";

/** 照剧本回答的模型。请求不会发出去：调用方把 streamFn 换成这里的流。 */
export const SCRIPTED_MODEL: Model<"openai-completions"> = {
  id: "scripted",
  name: "scripted model",
  api: "openai-completions",
  provider: "fidelity",
  baseUrl: "http://127.0.0.1:9",
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  reasoning: false,
  contextWindow: 100_000,
  maxTokens: 4_096,
};

const NO_USAGE: Usage = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

/** 这个模型的一条助手消息。 */
export function assistantMessage(content: (TextContent | ToolCall)[], stopReason: StopReason, errorMessage?: string): AssistantMessage {
  const message: AssistantMessage = {
    role: "assistant",
    content,
    api: SCRIPTED_MODEL.api,
    provider: SCRIPTED_MODEL.provider,
    model: SCRIPTED_MODEL.id,
    usage: NO_USAGE,
    stopReason,
    timestamp: Date.now(),
  };
  if (errorMessage !== undefined) message.errorMessage = errorMessage;
  return message;
}

/**
 * AgentMessage 里只留模型认得的四种角色。装了 pi-coding-agent 以后，它给 AgentMessage 加了自己的消息类型
 * （比如 bashExecution）；剧本里不会出现它们，这里按类型把它们排除在外。
 */
export const llmMessages = (messages: readonly AgentMessage[]): Message[] =>
  messages.filter((m): m is Message => m.role === "system" || m.role === "user" || m.role === "assistant" || m.role === "toolResult");

/**
 * 模型的一次回答，照 Pi 的流来写：文字一段段到（deltas，可以一段都没有），随后是调用，以 stop 收尾；
 * 或者 provider 出错（出错前已经收到 partialText）。
 */
export type ScriptedAnswer =
  | { kind: "message"; deltas: readonly string[]; calls: readonly ToolCall[]; stop: ModelStop }
  | { kind: "error"; message: string; partialText?: string };

/**
 * 一次回答变成 Pi 的助手消息事件：start，文字（text_start，每段一个 text_delta，text_end），每个调用
 * （toolcall_start/_end），最后 done；provider 出错则以 error 收尾（出错前一个字都没有时，连 start 都不发——Pi 允许这样）。
 * 按 StreamFn 的约定，出错写进流里，绝不抛出。
 */
export function streamAnswer(answer: ScriptedAnswer): AssistantMessageEventStream {
  const stream = createAssistantMessageEventStream();
  if (answer.kind === "error" && answer.partialText === undefined) {
    stream.push({ type: "error", reason: "error", error: assistantMessage([], "error", answer.message) });
    return stream;
  }
  const content: (TextContent | ToolCall)[] = [];
  const partial = assistantMessage(content, "pending");
  stream.push({ type: "start", partial });
  const partialText = answer.kind === "error" ? (answer.partialText ?? "") : "";
  const deltas = answer.kind === "error" ? (partialText === "" ? [] : [partialText]) : answer.deltas;
  if (deltas.length > 0) {
    const textBlock: TextContent = { type: "text", text: "" };
    const contentIndex = content.push(textBlock) - 1;
    stream.push({ type: "text_start", contentIndex, partial });
    for (const delta of deltas) {
      textBlock.text += delta;
      stream.push({ type: "text_delta", contentIndex, delta, partial });
    }
    stream.push({ type: "text_end", contentIndex, content: textBlock.text, partial });
  }
  if (answer.kind === "error") {
    stream.push({ type: "error", reason: "error", error: assistantMessage([...content], "error", answer.message) });
    return stream;
  }
  for (const toolCall of answer.calls) {
    const contentIndex = content.push(toolCall) - 1;
    stream.push({ type: "toolcall_start", contentIndex, partial });
    stream.push({ type: "toolcall_end", contentIndex, toolCall, partial });
  }
  stream.push({ type: "done", reason: answer.stop, message: assistantMessage([...content], answer.stop) });
  return stream;
}

/** 剧本（scenarios.ts）的一次回答写成 Pi 的样子：文字是一整段增量，调用的参数拷一份成 JSON 对象。 */
export const scenarioAnswer = (reply: Reply): ScriptedAnswer =>
  reply.kind === "error"
    ? reply
    : {
        kind: "message",
        deltas: reply.text === "" ? [] : [reply.text],
        calls: reply.calls.map((call): ToolCall => ({ type: "toolCall", id: call.id, name: call.name, arguments: JSON.parse(JSON.stringify(call.args)) as JsonObject })),
        stop: reply.stop,
      };

/** 剧本的一次回答变成 Pi 的流。 */
export const streamReply = (reply: Reply): AssistantMessageEventStream => streamAnswer(scenarioAnswer(reply));


/** provider 听到 AbortSignal 时的收尾，照 pi-ai 的 provider 写（faux.ts 的 createAbortedMessage）：stopReason aborted。 */
export function abortedStream(): AssistantMessageEventStream {
  const stream = createAssistantMessageEventStream();
  stream.push({ type: "error", reason: "aborted", error: assistantMessage([], "aborted", "Request was aborted") });
  return stream;
}
