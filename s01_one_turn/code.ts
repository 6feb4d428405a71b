// s01_one_turn —— mini Pi 第 1 版：一问一答，错误不外抛，输出不直连 console。
// 运行：npx tsx s01_one_turn/code.ts

import { pathToFileURL } from "node:url";

// ── 消息 ──────────────────────────────────────────────────
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

// ── core 状态 ────────────────────────────────────────────
/**
 * agent 跨轮保存的东西。现在只有对话历史。
 * @since s01
 */
export type AgentState = { messages: AgentMessage[] };

// ── 发给模型的输入 ────────────────────────────────────────
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

// ── 错误说明 ──────────────────────────────────────────────
/**
 * 把错误对象转成一句人话。provider 可能抛任何东西，不一定是 Error；有的东西连转成文字都会出错
 * （没有原型的对象、自己会抛错的 toString、撤销了的 Proxy），这时只说它是什么类型。它自己从不抛错。
 * @since s01
 */
export function describeError(error: unknown): string {
  try {
    return error instanceof Error ? String(error.message) : String(error);
  } catch {
    return `unprintable ${typeof error}`;
  }
}

// ── 输出 ──────────────────────────────────────────────────
/**
 * core 唯一的出口。core 只管往这里写行，写到终端、文件还是测试里的数组，由调用方决定。
 * @since s01
 */
export type Output = { log(line: string): void };

/**
 * 把一行交给 Output。输出只是呈现：它抛错（终端关了、管道断了），这一轮存下的东西不受影响，也不外抛。
 * 出口本身坏了，就没有别处可以说了，这一行只能丢掉。
 * @since s01
 */
export function writeLine(output: Output, line: string): void {
  try {
    output.log(line);
  } catch {
    // 见上：丢掉这一行
  }
}

// ── 组装 ──────────────────────────────────────────────────
/**
 * 一个 agent 由哪些零件组成。以后每节往这里加零件，函数签名不用改。
 * @since s01
 */
export type Agent = { state: AgentState; provider: Provider; output: Output };

// ── 一轮对话 ──────────────────────────────────────────────
/**
 * 正在跑一轮的 agent，按它的 state 认。同一份历史上同时跑两轮，两轮的消息会交错着存进去，所以一次只许跑一轮。
 * @since s01
 */
export const turnsInProgress = new WeakSet<AgentState>();

/**
 * 调用方用错了时的回答（比如上一轮还没跑完又来一轮）：stopReason 为 "error"，不存进历史，什么都不改。
 * @since s01
 */
export function refusedTurn(reason: string): AssistantMessage {
  return { role: "assistant", content: `error: ${reason}`, stopReason: "error" };
}

/**
 * 跑一轮：存下用户消息，问 provider，存下回答，再把回答写到输出。
 * provider 抛错不往外抛：它变成一条 stopReason 为 "error" 的助手消息，照样存进历史。
 * 上一轮还没跑完又来一轮，这一轮不跑：回一条 "error: …"，历史不动。
 * @since s01
 */
export async function runOneTurn(agent: Agent, userInput: string): Promise<AssistantMessage> {
  const { state, provider, output } = agent;
  // 调用方用错了就不跑，历史一点不动：同一个 agent 一次只跑一轮（Pi 同样拒绝："Agent is already processing a prompt"），输入得是文字
  if (turnsInProgress.has(state)) return refusedTurn("agent is already processing a prompt");
  if (typeof userInput !== "string") return refusedTurn(`user input must be a string, got ${typeof userInput}`);
  turnsInProgress.add(state);
  try {
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
    writeLine(output, `assistant: ${assistant.content}`);
    return assistant;
  } finally {
    turnsInProgress.delete(state);
  }
}

// ── 假 provider（离线、确定） ─────────────────────────────
/**
 * 照剧本行事的假模型：只看收到的输入决定怎么回答，同样的输入永远得到同样的回答，不联网。
 * 剧本是下面那张 script 表，一行一种问法。从上往下找第一行对得上的，照它回答；一行都对不上，就复述问题，
 * 并报出这是第几个问题（数的是请求里的用户消息，正好看出每次请求都带着完整历史）。
 * 问题里带「崩」字时它不看剧本，直接抛错，用来演示错误怎么变成消息。
 * @since s01
 */
export function createFakeProvider(): Provider {
  // 剧本的一行看得到的东西
  type Seen = {
    question: string; // 用户最近问的那句话
    input: ProviderInput; // 这次请求的全部输入
  };
  // 一句回答
  type Answer = { text: string };
  const say = (text: string): Answer => ({ text });
  // 剧本的一行：什么时候用它，用它时怎么回答。answer 回 undefined 是说「这一行不管」，接着往下找
  type Line = {
    asks: string; // 问题里有这个词
    answer: (seen: Seen) => Answer | undefined;
  };
  const script: Line[] = []; // 还没有要特别回答的问法：什么问题都复述一遍
  return {
    async complete(input: ProviderInput): Promise<string> {
      const question = input.messages.findLast((m) => m.role === "user")?.content ?? "";
      if (question.includes("崩")) throw new Error("provider unavailable (503)");
      const seen: Seen = { question, input };
      // 从上往下找第一行对得上、也给了回答的；一行都没有，就复述问题
      let reply: Answer | undefined;
      for (const line of script) {
        if (!question.includes(line.asks)) continue;
        reply = line.answer(seen);
        if (reply !== undefined) break;
      }
      reply ??= say(`收到第 ${input.messages.filter((m) => m.role === "user").length} 个问题：「${question}」。`);
      return reply.text;
    },
  };
}

// ── IO 边缘 ───────────────────────────────────────────────
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
