// 循环剧本的 mini Pi 一侧：把一个剧本交给某一课的 code.ts 跑一轮，拿回归一后的轨迹（机制剧本在 mini-mechanisms.ts）。
// 拼 Agent、按剧本出事件的 provider 都复用课程工具库的 tooling/assemble-agent.ts（行为测试用的也是它）。

import { type Hooks, type Input, type Msg, type ProviderLike, type ToolLike, importLesson } from "../tooling/lesson.ts";
import { makeAgent, scriptedProvider } from "../tooling/assemble-agent.ts";
import type { Step } from "../tooling/screenplay.ts";
import { describeEntry, normaliseMini, normaliseMiniRequest, type FidelityTrace } from "./compare.ts";
import { CALLER, EXHAUSTED, callerLine, type Reply, type FidelityScenario, toolOutput, watchHang } from "./scenarios.ts";

/**
 * 一次运行的结果：跑完后的历史、每次请求时模型看到的消息、剧本是否被问超了；
 * 有调用方剧本（FidelityScenario.caller）时，还有调用方每一步看到了什么。
 */
export type Run = { trace: FidelityTrace; requests: FidelityTrace[]; overrun: boolean; caller?: FidelityTrace };

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

/**
 * 模型第一次被问到时插一手：provider 的两种入口（s01–s02 的 complete，s03 起的 stream）都包一层，
 * 第一次调用前先跑 before()（它返回的 Promise 兑现了才往下走）。
 */
function onFirstRequest(provider: ProviderLike, before: () => Promise<void>): ProviderLike {
  let first = true;
  const gate = async (): Promise<void> => {
    if (!first) return;
    first = false;
    await before();
  };
  const { complete, stream } = provider;
  const wrapped: ProviderLike = {};
  if (complete !== undefined) {
    wrapped.complete = async (input: Input) => {
      await gate();
      return complete.call(provider, input);
    };
  }
  if (stream !== undefined) {
    wrapped.stream = async function* (input: Input) {
      await gate();
      yield* stream.call(provider, input);
    };
  }
  return wrapped;
}

/** 剧本里的钩子写成课程的写法。nothing、async 故意回出课程钩子类型以外的值（undefined、Promise）：要看的正是这个。 */
function courseHooks(scenario: FidelityScenario): Hooks {
  const { before, after } = scenario.hooks ?? {};
  const hooks: { beforeToolCall?: (call: Parameters<NonNullable<Hooks["beforeToolCall"]>>[0]) => unknown; afterToolCall?: (call: Parameters<NonNullable<Hooks["afterToolCall"]>>[0], result: string) => unknown } = {};
  if (before !== undefined) {
    const decide = (name: string): unknown => {
      if (name !== before.tool) return { type: "allow" };
      if (before.kind === "throw") throw new Error(before.message);
      if (before.kind === "nothing") return undefined;
      return { type: "block", reason: before.reason };
    };
    hooks.beforeToolCall = (call) => (before.async === true ? Promise.resolve().then(() => decide(call.name)) : decide(call.name));
  }
  if (after !== undefined) hooks.afterToolCall = (_call, result) => (after.kind === "nothing" ? undefined : result + after.suffix);
  return hooks as Hooks;
}

export async function runMini(lesson: string, scenario: FidelityScenario): Promise<Run> {
  const mod = await importLesson(lesson);
  const calls: string[][] = [];
  let overrun = false;
  const scripted = scriptedProvider(lesson, (_input, n) => {
    const reply = scenario.reply(n);
    if (reply !== undefined) return toSteps(reply, calls);
    overrun = true;
    return toSteps(EXHAUSTED, calls);
  });
  const tools: ToolLike[] = scenario.tools.map((tool) => ({
    spec: { name: tool.name, description: `${tool.name} tool`, input: Object.fromEntries(tool.params.map((p) => [p, p])) },
    // 照 Pi 写成 async 的工具交回的是 Promise，不是课程 ToolHandler 要的文字（D27 要看的就是它）
    handler: (input) => (tool.behaviour.kind === "async" ? (Promise.resolve(toolOutput(tool, input)) as unknown as string) : toolOutput(tool, input)),
  }));

  // 调用方的剧本：模型第一次被问到时，再发一句话，或者让模型不回话
  const plan = scenario.caller;
  const caller: FidelityTrace = [];
  let second: Promise<Msg> | undefined;
  let release = (): void => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let provider = scripted.provider;
  if (plan?.kind === "second-prompt") {
    provider = onFirstRequest(provider, async () => {
      second = mod.runOneTurn(agent, plan.input);
    });
  } else if (plan?.kind === "hang") {
    provider = onFirstRequest(provider, () => released);
  }

  const { agent, messages } = makeAgent(lesson, mod, { provider, tools, hooks: courseHooks(scenario) });
  const turn = mod.runOneTurn(agent, scenario.input);
  if (plan?.kind === "hang") {
    // 调用方想放弃：课程没有取消（D35），手上没有任何可调的东西，只能再等等看
    const giveUp = (): void => {};
    for (const text of await watchHang(turn, plan.waitMs, giveUp, release)) caller.push({ role: "caller", text });
  }
  await turn;
  if (plan?.kind === "second-prompt") {
    const what = second === undefined ? "（没发出去）" : await second.then((msg) => CALLER.returned(describeEntry(normaliseMini([msg], [[]])[0])), (e: unknown) => CALLER.threw(String(e)));
    caller.push({ role: "caller", text: callerLine(CALLER.secondPrompt, what) });
  }
  return {
    trace: normaliseMini(messages(), calls),
    requests: scripted.inputs.map((input) => normaliseMiniRequest(input.messages)),
    overrun,
    ...(plan === undefined ? {} : { caller }),
  };
}
