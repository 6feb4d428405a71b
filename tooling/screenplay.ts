// 假模型的剧本：剧本 provider（tooling/assemble-agent.ts 的 scriptedProvider）照它一步步出事件。一次回答的剧本是一串事件（Step），
// 整场对话的剧本（Script）按第几次请求、收到什么输入给出那一次的回答。场景数据、行为测试、坏输入表、性质测试、保真对照
// 都用这里的小函数写，不各抄一份。消息的写法（user / assistant / toolResult）用来写预期的历史；plainMessage 把存下的消息
// 裁成只剩这四个字段。
import type { Call, Event, Input, Msg } from "./lesson.ts";

/** 一次回答的剧本里的一步：一个事件；"throw" 表示在那个位置抛错。 */
export type Step = Event | { type: "throw"; message: string };

/** 整场对话的剧本：第 call 次请求（从 0 数）收到 input 时回哪些事件。 */
export type Script = (input: Input, call: number) => Step[];

// ── 事件 ──────────────────────────────────────────────────
/** 一次调用。input 故意收 unknown：坏输入表和性质测试要喂不是对象的参数。 */
export const call = (id: string, name: string, input: unknown): Call => ({ id, name, input: input as Record<string, unknown> });
export const start: Step = { type: "message_start" };
export const delta = (text: string): Step => ({ type: "text_delta", text });
export const end = (stopReason: string): Step => ({ type: "message_end", stopReason });
export const toolCall = (c: Call): Step => ({ type: "tool_call", call: c });

// ── 整条回答 ──────────────────────────────────────────────
// 每次都是新的事件对象：同一份剧本跑在好几课上，谁也碰不到谁的。
/** 一段文字的回答：message_start、一个 text_delta、message_end。 */
export const text = (t: string, stopReason = "stop"): Step[] => [{ type: "message_start" }, delta(t), end(stopReason)];

/** 要工具的回答：可选的一段开场白，然后按顺序的调用，以 toolUse 收尾。 */
export const toolUse = (lead: string, ...calls: Call[]): Step[] => [
  { type: "message_start" },
  ...(lead === "" ? [] : [delta(lead)]),
  ...calls.map(toolCall),
  end("toolUse"),
];

// ── 消息 ──────────────────────────────────────────────────
export const user = (content: string): Msg => ({ role: "user", content });
export const assistant = (content: string, stopReason = "stop"): Msg => ({ role: "assistant", content, stopReason });
export const toolResult = (toolCallId: string, content: string): Msg => ({ role: "toolResult", toolCallId, content });

/** 一条存下的消息只留 role、content 和（有的话）stopReason、toolCallId：会话树的 id、parentId 不算。 */
export function plainMessage(m: { role: string; content: string; stopReason?: string; toolCallId?: string }): Msg {
  const out = { role: m.role, content: m.content } as Msg;
  if (m.stopReason !== undefined) out.stopReason = m.stopReason;
  if (m.toolCallId !== undefined) out.toolCallId = m.toolCallId;
  return out;
}
