// s01_one_turn —— mini Pi 第 1 版：一问一答，错误不外抛，输出不直连 console。
// 运行：npx tsx s01_one_turn/code.ts
// 一轮（runOneTurn）：存下用户消息 → 整段历史交给 provider.complete
//   拿回文字：一条 stopReason "stop" 的回答；抛了错：一条 stopReason "error" 的回答
//   回答存进历史，经 Output 写一行

import { pathToFileURL } from "node:url";

// ── 消息和历史 ───────────────────────────────────────────
/**
 * 一条助手消息为什么结束。每条助手消息都带着它，出错也一样。
 * @since s01
 */
export type StopReason = "stop" | "error";

/**
 * 用户说的一句话。
 * @since s01
 */
export type UserMessage = { role: "user"; content: string };

/**
 * 模型回的一句话，连同它结束的原因。
 * @since s01
 */
export type AssistantMessage = { role: "assistant"; content: string; stopReason: StopReason };

/**
 * 存进对话历史的消息。以后只会多出新成员，不会少。
 * @since s01
 */
export type AgentMessage = UserMessage | AssistantMessage;

/**
 * agent 跨轮保存的东西。现在只有对话历史。
 * @since s01
 */
export type AgentState = { messages: AgentMessage[] };

// ── 模型：发给它的输入，它的接入口 ───────────────────────
/**
 * provider 眼里的一条消息：只留模型需要的字段。
 * @since s01
 */
export type ProviderMessage = { role: "user" | "assistant"; content: string };

/**
 * 一次请求发给 provider 的全部内容。
 * @since s01
 */
export type ProviderInput = { messages: ProviderMessage[] };

/**
 * 模型的接入口。一次给全部输入，一次拿回全部文字。
 * @since s01
 */
export interface Provider {
  complete(input: ProviderInput): Promise<string>;
}

// ── 输出 ─────────────────────────────────────────────────
/**
 * core 唯一的出口。core 只管往这里写行，写到终端、文件还是测试里的数组，由调用方决定。
 * @since s01
 */
export type Output = { log(line: string): void };

// ── 组装 ─────────────────────────────────────────────────
/**
 * 一个 agent 由哪些零件组成。以后每节往这里加零件，函数签名不用改。
 * @since s01
 */
export type Agent = { state: AgentState; provider: Provider; output: Output };

// ── 一轮对话 ─────────────────────────────────────────────
/**
 * 跑一轮：存下用户消息，问 provider，存下回答，再把回答写到输出。
 * provider 抛错不往外抛：它变成一条 stopReason 为 "error" 的助手消息，照样存进历史。
 * @since s01
 */
export async function runOneTurn(agent: Agent, userInput: string): Promise<AssistantMessage> {
  const { state, provider, output } = agent;
  state.messages.push({ role: "user", content: userInput });
  let assistant: AssistantMessage;
  try {
    const request: ProviderInput = { messages: state.messages.map((m) => ({ role: m.role, content: m.content })) };
    const text: unknown = await provider.complete(request);
    // provider 是外来代码，回的不一定是文字：不是就按出错处理，免得把别的东西当成回答存进历史
    if (typeof text !== "string") throw new Error(`provider must return a string, got ${typeof text}`);
    assistant = { role: "assistant", content: text, stopReason: "stop" };
  } catch (error) {
    assistant = { role: "assistant", content: `error: ${describeError(error)}`, stopReason: "error" };
  }
  state.messages.push(assistant);
  output.log(`assistant: ${assistant.content}`);
  return assistant;
}

// ── 防线：外来的值 ───────────────────────────────────────
/**
 * 把 provider 抛出来的东西说成一句话：不一定是 Error，连转成文字都出错的只说它的类型。它自己从不抛错，否则错误处理里再抛一次，这一轮就真崩了。
 * @since s01
 */
export function describeError(error: unknown): string {
  try {
    return error instanceof Error ? String(error.message) : String(error);
  } catch {
    return `unprintable ${typeof error}`;
  }
}

// ── 假 provider（离线、确定） ────────────────────────────
/**
 * 不联网的假模型：复述问题，报出这是第几个问题（数的是请求里的用户消息，正好看出每次请求都带着完整历史）；
 * 问题里带「崩」字就抛错，用来演示错误怎么变成消息。
 * @since s01
 */
export function createFakeProvider(): Provider {
  return {
    async complete(input: ProviderInput): Promise<string> {
      const question = input.messages.findLast((m) => m.role === "user")?.content ?? "";
      if (question.includes("崩")) throw new Error("provider unavailable (503)");
      return `收到第 ${input.messages.filter((m) => m.role === "user").length} 个问题：「${question}」。`;
    },
  };
}

// ── IO 边缘 ──────────────────────────────────────────────
/**
 * core 写出的行从这里打到 stdout。IO 边缘只有它和 main 两处碰终端：main 自己也打演示用的提示行。
 * @since s01
 */
export const consoleOutput: Output = { log: (line) => console.log(line) };

/**
 * 演示：两轮正常对话，再来一轮 provider 出错。
 * @since s01
 */
export async function main(): Promise<void> {
  const agent: Agent = { state: { messages: [] }, provider: createFakeProvider(), output: consoleOutput };
  for (const question of ["你好", "帮我看看这个项目", "这次让它崩一下"]) {
    console.log(`user: ${question}`);
    await runOneTurn(agent, question);
  }
  console.log(`（历史里共 ${agent.state.messages.length} 条消息）`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await main();
}
