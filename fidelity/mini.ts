// 适配器（mini Pi 一侧）：把一个剧本交给某一课的 code.ts 跑一轮，拿回归一后的轨迹。
// 拼 Agent、按剧本出事件的 provider 都复用行为测试的底座 tests/support/lessons.ts。

import { importLesson, makeAgent, scriptedProvider, type Hooks, type Step, type ToolLike } from "../tests/support/lessons.ts";
import { normaliseMini, normaliseMiniRequest, type Trace } from "./compare.ts";
import { type Reply, type Scenario, toolOutput } from "./scenarios.ts";

/** 一次运行的结果：跑完后的历史、每次请求时模型看到的消息、剧本是否被问超了。 */
export type Run = { trace: Trace; requests: Trace[]; overrun: boolean };

/**
 * 一次回答变成课程 provider 的事件。课程的 StopReason 只有三个值：Pi 的 "length"（输出被截断）在这里
 * 记作 "stop"——截断的回答也是一次说完了的回答（DIFFERENCES.md F11）。
 * provider 出错就在那个位置抛错；出错前已经吐出的文字先发出去。
 */
export function toSteps(reply: Reply, calls: string[][]): Step[] {
  if (reply.kind === "error") {
    calls.push([]);
    const before: Step[] = reply.partialText === undefined ? [] : [{ type: "message_start" }, { type: "text_delta", text: reply.partialText }];
    return [...before, { type: "throw", message: reply.message }];
  }
  calls.push(reply.calls.map((c) => c.id));
  return [
    { type: "message_start" },
    ...(reply.text === "" ? [] : [{ type: "text_delta" as const, text: reply.text }]),
    ...reply.calls.map((c) => ({ type: "tool_call" as const, call: { id: c.id, name: c.name, input: c.args } })),
    { type: "message_end", stopReason: reply.stop === "length" ? "stop" : reply.stop },
  ];
}

export async function runMini(lesson: string, scenario: Scenario): Promise<Run> {
  const mod = await importLesson(lesson);
  const calls: string[][] = [];
  let overrun = false;
  const { provider, inputs } = scriptedProvider(lesson, (_input, n) => {
    const reply = scenario.reply(n);
    if (reply !== undefined) return toSteps(reply, calls);
    overrun = true;
    return toSteps({ kind: "message", text: "(script exhausted)", calls: [], stop: "stop" }, calls);
  });
  const tools: ToolLike[] = scenario.tools.map((tool) => ({
    spec: { name: tool.name, description: `${tool.name} tool`, input: Object.fromEntries(tool.params.map((p) => [p, p])) },
    handler: (input) => toolOutput(tool, input),
  }));
  const { before, after } = scenario.hooks ?? {};
  const hooks: Hooks = {};
  if (before !== undefined) {
    hooks.beforeToolCall = (call) => {
      if (call.name !== before.tool) return { type: "allow" };
      if (before.kind === "throw") throw new Error(before.message);
      return { type: "block", reason: before.reason };
    };
  }
  if (after !== undefined) hooks.afterToolCall = (_call, result) => result + after.suffix;
  const { agent, messages } = makeAgent(lesson, mod, { provider, tools, hooks });
  await mod.runOneTurn(agent, scenario.input);
  return { trace: normaliseMini(messages(), calls), requests: inputs.map((input) => normaliseMiniRequest(input.messages)), overrun };
}
