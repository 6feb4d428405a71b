// npm run bench 的 Pi 一侧：tooling/bench/workloads.ts 的三种工作量交给 @earendil-works/pi-agent-core 1.6.0 的 runAgentLoop。
// 模型是 scripted-model.ts 照 SCRIPT 出事件的流（保真对照用的同一个），工具是和 mini 一侧做同样事情的 echo，
// 订阅者只数一数事件，其余全用 Pi 的默认值（所以一次回答里的调用是并行执行的）。
// 它要 Pi 的包，课程的类型检查不跟进来：bench 经 pi-install.ts 的 loadPiBench 按路径加载它，没装 Pi 就不加载。

import { type AgentTool, runAgentLoop } from "@earendil-works/pi-agent-core";
import type { Message, ToolCall } from "@earendil-works/pi-ai";
import { type ComparedRun, SCRIPT, type Side } from "../tooling/bench/workloads.ts";
import { llmMessages, SCRIPTED_MODEL, type ScriptedAnswer, streamAnswer } from "./scripted-model.ts";

const blockText = (content: string | readonly { type: string; text?: string }[]): string =>
  typeof content === "string" ? content : content.map((b) => (b.type === "text" ? (b.text ?? "") : "")).join("");

const call = (i: number): ToolCall => ({ type: "toolCall", id: SCRIPT.callId(i), name: SCRIPT.tool, arguments: { text: SCRIPT.arg(i) } });
const textAnswer = (deltas: string[]): ScriptedAnswer => ({ kind: "message", deltas, calls: [], stop: "stop" });
const callsAnswer = (indices: number[]): ScriptedAnswer => ({ kind: "message", deltas: [], calls: indices.map(call), stop: "toolUse" });

/** 一次运行：第 k 次请求回 respond(k)。 */
function runWith(respond: (k: number) => ScriptedAnswer): ComparedRun {
  return async () => {
    // 每次运行都新建工具（连同它的 JSON schema），和 mini 一侧每次新建 registry 对等：两边都为这一轮编译一次校验器。
    const echo: AgentTool = {
      name: SCRIPT.tool,
      label: SCRIPT.tool,
      description: `${SCRIPT.tool} tool`,
      parameters: { type: "object", properties: { text: { type: "string", description: "text" } }, required: ["text"], additionalProperties: false },
      execute: async (_id, params) => ({ content: [{ type: "text", text: SCRIPT.echo(String((params as { text?: unknown }).text)) }], details: {} }),
    };
    let k = 0;
    let events = 0;
    const messages = await runAgentLoop(
      [{ role: "user", content: SCRIPT.prompt, timestamp: Date.now() }],
      { messages: [], tools: [echo] },
      // 上下文里只有 user / assistant / toolResult 和 Pi 自己插的 system，原样交回，每次请求不多走一遍（和改动前的 bench 一样）
      { model: SCRIPTED_MODEL, convertToLlm: (context) => context as Message[] },
      () => void events++,
      undefined,
      () => streamAnswer(respond(k++)),
    );
    // Pi 在第一条用户消息前插一条 system 消息，声明这次有哪些工具（课程没有这种消息）；记录里略过它。
    const transcript = (): string[] => llmMessages(messages).flatMap((m) => (m.role === "system" ? [] : [`${m.role}:${blockText(m.content)}`]));
    return { transcript, events };
  };
}

/** Pi 一侧怎么跑三种工作量。 */
export function piBenchSide(): Side {
  const done = textAnswer([SCRIPT.done]);
  return {
    deltas: (n) => runWith(() => textAnswer(Array.from({ length: n }, () => SCRIPT.delta))),
    callsInOneResponse: (n) => runWith((k) => (k === 0 ? callsAnswer(Array.from({ length: n }, (_, i) => i)) : done)),
    oneCallPerResponse: (n) => runWith((k) => (k < n ? callsAnswer([k]) : done)),
  };
}
