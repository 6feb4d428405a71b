// 循环剧本的真实 Pi 一侧：同一个剧本交给 @earendil-works/pi-agent-core 1.6.0 的 runAgentLoop 跑一次。
// 模型换成照剧本出事件的 streamFn（scripted-model.ts），工具是 AgentTool，钩子是 beforeToolCall / afterToolCall，
// convertToLlm 只留模型认得的角色。只在 pi-side.ts 起的 Node 24 子进程里加载（`npm run fidelity`）。
// 调用方的剧本（第二句话、不回话的模型）要 prompt() 和 abort()，交给同一个包里的 Agent 跑。

import { Agent, type AgentLoopConfig, type AgentTool, runAgentLoop, type StreamFn } from "@earendil-works/pi-agent-core";
import { asRequest, normalisePi, type FidelityTrace } from "./compare.ts";
import type { Run } from "./mini-loop.ts";
import { CALLER, callerLine, type FidelityScenario, toolOutput, watchHang } from "./scenarios.ts";
import { abortedStream, EXHAUSTED, llmMessages, SCRIPTED_MODEL, streamReply } from "./scripted-model.ts";

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? Object.fromEntries(Object.entries(value)) : {};

/** 照剧本回答的模型：记下每次请求时模型看到的消息；剧本答完了还被问，就记一笔 overrun。 */
type RecordingModel = {
  streamFn: StreamFn;
  requests: FidelityTrace[];
  overrun: boolean;
  /** 调用方的剧本在模型第一次被问到时插一手（scenarios.ts 的 CallerPlan），见 runWithAgent。 */
  firstRequest: FirstRequest | undefined;
};

function recordingModel(scenario: FidelityScenario): RecordingModel {
  const model: RecordingModel = {
    requests: [],
    overrun: false,
    firstRequest: undefined,
    streamFn: async (_model, context, options) => {
      model.requests.push(asRequest(normalisePi(context.messages)));
      const n = model.requests.length - 1;
      if (n === 0 && model.firstRequest !== undefined && (await model.firstRequest(options?.signal)) === "aborted") return abortedStream();
      const reply = scenario.reply(n);
      if (reply !== undefined) return streamReply(reply);
      model.overrun = true;
      return streamReply(EXHAUSTED);
    },
  };
  return model;
}

/** 剧本的工具写成 AgentTool：参数全是必填的字符串，执行时照剧本给出输出。 */
const piTools = (scenario: FidelityScenario): AgentTool[] =>
  scenario.tools.map((tool) => ({
    name: tool.name,
    label: tool.name,
    description: `${tool.name} tool`,
    parameters: {
      type: "object",
      properties: Object.fromEntries(tool.params.map((p) => [p, { type: "string", description: p }])),
      required: tool.params,
      additionalProperties: false,
    },
    execute: async (_toolCallId, params) => ({ content: [{ type: "text", text: toolOutput(tool, asRecord(params)) }], details: {} }),
  }));

/** 循环的配置：剧本里的钩子接到 beforeToolCall / afterToolCall，piTurnLimit 接到 finishTurn。 */
function loopConfig(scenario: FidelityScenario): AgentLoopConfig {
  const config: AgentLoopConfig = { model: SCRIPTED_MODEL, convertToLlm: llmMessages };
  const { before, after } = scenario.hooks ?? {};
  // Pi 的钩子本来就是 async 的（类型写着返回 Promise），before.async 在这一边不改变写法；undefined 就是 Pi 的放行
  if (before !== undefined) {
    config.beforeToolCall = async ({ toolCall }) => {
      if (toolCall.name !== before.tool) return undefined;
      if (before.kind === "throw") throw new Error(before.message);
      if (before.kind === "nothing") return undefined;
      return { block: true, reason: before.reason };
    };
  }
  if (after !== undefined) {
    config.afterToolCall = async ({ result }) =>
      after.kind === "nothing" ? undefined : { content: [{ type: "text", text: result.content.map((c) => (c.type === "text" ? c.text : "")).join("") + after.suffix }] };
  }
  const { piTurnLimit } = scenario;
  if (piTurnLimit !== undefined) {
    let turns = 0;
    config.finishTurn = () => (++turns >= piTurnLimit ? { action: "end" } : undefined);
  }
  return config;
}

/** 一个循环剧本在真实 Pi 上跑一次：一般的剧本交给 runAgentLoop，调用方的剧本交给 Agent（runWithAgent）。 */
export async function runPi(scenario: FidelityScenario): Promise<Run> {
  const model = recordingModel(scenario);
  const tools = piTools(scenario);
  const config = loopConfig(scenario);
  if (scenario.caller !== undefined) return runWithAgent(scenario, model, tools, config);
  const messages = await runAgentLoop(
    [{ role: "user", content: scenario.input, timestamp: Date.now() }],
    { messages: [], tools },
    config,
    () => {},
    undefined,
    model.streamFn,
  );
  return { trace: normalisePi(llmMessages(messages)), requests: model.requests, overrun: model.overrun };
}

/** 调用方的剧本不走 runAgentLoop：同样的模型、工具和钩子装进 Agent，由 callerScript 去 prompt() 和 abort()。 */
async function runWithAgent(scenario: FidelityScenario, model: RecordingModel, tools: AgentTool[], config: AgentLoopConfig): Promise<Run> {
  const agent = new Agent({
    initialState: { model: SCRIPTED_MODEL, tools },
    convertToLlm: llmMessages,
    streamFn: model.streamFn,
    ...(config.beforeToolCall === undefined ? {} : { beforeToolCall: config.beforeToolCall }),
    ...(config.afterToolCall === undefined ? {} : { afterToolCall: config.afterToolCall }),
  });
  const { caller, first } = callerScript(scenario, agent);
  model.firstRequest = first;
  return { ...(await caller()), requests: model.requests, overrun: model.overrun };
}

/** 模型第一次被问到时做什么：回 "aborted" 就以 aborted 收尾，回 "released" 就照剧本回答。 */
type FirstRequest = (signal: AbortSignal | undefined) => Promise<"aborted" | "released">;

/**
 * 调用方的剧本交给 Agent：prompt() 发话，abort() 放弃，历史取 agent.state.messages。
 * second-prompt：模型第一次被问到时再 prompt() 一句；hang：模型第一次被问到时不回话，等一等、abort()、再放它回话。
 * 每一步最多等 waitMs 毫秒（settlesWithin），剧本不会卡住。
 */
function callerScript(scenario: FidelityScenario, agent: Agent): { first: FirstRequest; caller(): Promise<{ trace: FidelityTrace; caller: FidelityTrace }> } {
  const plan = scenario.caller;
  const seen: FidelityTrace = [];
  let second: Promise<string> | undefined;
  let release = (): void => {};
  const released = new Promise<"released">((resolve) => (release = () => resolve("released")));
  const first: FirstRequest = async (signal) => {
    if (plan?.kind === "second-prompt") {
      // prompt() 是 async 的：拒绝以 reject 的形式回来，当场接住
      second = agent.prompt(plan.input).then(
        () => CALLER.returned("（正常结束）"),
        (error: unknown) => CALLER.threw(error instanceof Error ? error.message : String(error)),
      );
      return "released";
    }
    if (plan?.kind !== "hang") return "released";
    // pi-ai 的 provider 把 AbortSignal 交给底下的请求，信号一到就以 aborted 收尾；不听的 provider 只等放行
    const aborted = new Promise<"aborted">((resolve) => {
      if (plan.honoursAbort) signal?.addEventListener("abort", () => resolve("aborted"), { once: true });
    });
    return Promise.race([released, aborted]);
  };
  const caller = async (): Promise<{ trace: FidelityTrace; caller: FidelityTrace }> => {
    const run = agent.prompt(scenario.input);
    if (plan?.kind === "hang") for (const text of await watchHang(run, plan.waitMs, () => agent.abort(), release)) seen.push({ role: "caller", text });
    await run;
    if (plan?.kind === "second-prompt") seen.push({ role: "caller", text: callerLine(CALLER.secondPrompt, second === undefined ? "（没发出去）" : await second) });
    return { trace: normalisePi(llmMessages(agent.state.messages)), caller: seen };
  };
  return { first, caller };
}
