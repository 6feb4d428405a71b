// s02_tools —— mini Pi 第 2 版：在 s01 上加工具契约和工具注册表，发给模型的输入里带上工具清单。
// 运行：npx tsx s02_tools/code.ts
// 一轮（runOneTurn）：存下用户消息 → buildProviderInput 拼请求：整段历史 + registry.getSpecs() 的工具清单
//   交给 provider.complete：拿回文字是 stopReason "stop" 的回答，抛了错是 "error" 的回答
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
 * 一次请求发给 provider 的全部内容：对话历史，加上这次能用的工具。
 * @since s01
 */
export type ProviderInput = { messages: ProviderMessage[]; tools: ToolSpec[] };

/**
 * 模型的接入口。一次给全部输入，一次拿回全部文字。
 * @since s01
 */
export interface Provider {
  complete(input: ProviderInput): Promise<string>;
}

// ── 工具契约 ─────────────────────────────────────────────
/**
 * 告诉模型「有这么个工具」：名字、用途、要哪些参数。input 的键是参数名，值是参数说明，参数一律是字符串。
 * @since s02
 */
export type ToolSpec = { name: string; description: string; input: Record<string, string> };

/**
 * 工具真正干活的函数。同步，收字符串参数，回一段文字。
 * @since s02
 */
export type ToolHandler = (input: Record<string, string>) => string;

/**
 * 一个工具 = 给模型看的说明 + 给 core 调的函数。全课只有这一种工具形状。
 * @since s02
 */
export type Tool = { spec: ToolSpec; handler: ToolHandler };

/**
 * 按名字登记工具。发给模型的工具清单只从这里取。
 * @since s02
 */
export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();

  /**
   * 同名工具登记两次是写错了，直接报错，不悄悄覆盖。
   * 存下的是一份拷贝：登记以后谁再改原来那个对象，都影响不到这里。
   */
  register(tool: Tool): void {
    if (this.tools.has(tool.spec.name)) {
      throw new Error(`tool "${tool.spec.name}" is already registered`);
    }
    this.tools.set(tool.spec.name, { spec: { ...tool.spec, input: { ...tool.spec.input } }, handler: tool.handler });
  }

  /** 按登记顺序给出所有工具的说明。给出去的是拷贝：拿到清单的人（比如 provider）改了它，也改不到登记在这里的工具。 */
  getSpecs(): ToolSpec[] {
    return [...this.tools.values()].map(({ spec }) => ({ ...spec, input: { ...spec.input } }));
  }
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
export type Agent = { state: AgentState; provider: Provider; output: Output; registry: ToolRegistry };

// ── 组装输入 ─────────────────────────────────────────────
/**
 * 把 agent 的现状拼成一次请求：历史里的消息只留 role 和 content，工具清单现取自 registry。
 * @since s02
 */
export function buildProviderInput(agent: Agent): ProviderInput {
  return {
    messages: agent.state.messages.map((m) => ({ role: m.role, content: m.content })),
    tools: agent.registry.getSpecs(),
  };
}

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
    const text: unknown = await provider.complete(buildProviderInput(agent));
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
    offered: string[]; // 这次给它的工具名
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
  const script: Line[] = [
    { asks: "工具", answer: ({ offered }) => say(offered.length > 0 ? `这次我能用的工具：${offered.join(", ")}。` : "这次没有给我任何工具。") },
  ];
  return {
    async complete(input: ProviderInput): Promise<string> {
      const question = input.messages.findLast((m) => m.role === "user")?.content ?? "";
      if (question.includes("崩")) throw new Error("provider unavailable (503)");
      const seen: Seen = { question, offered: input.tools.map((t) => t.name), input };
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

// ── 演示数据 ─────────────────────────────────────────────
/**
 * 演示用的内存项目：文件就是数据，不碰真实磁盘。
 * @since s02
 */
export const DEMO_FILES: Record<string, string> = {
  "README.md": "# todo-app\n一个命令行待办清单。",
  "src/main.ts": "export function add(list: string[], item: string) { return [...list, item]; }",
  "src/store.ts": "export const FILE = '.todo.json';",
};

/**
 * 演示用的两个只读工具，工作在 DEMO_FILES 上。
 * @since s02
 */
export function createDemoTools(): Tool[] {
  return [
    {
      spec: { name: "read", description: "读一个文件的全文", input: { path: "文件路径，如 src/main.ts" } },
      handler: ({ path }) => {
        // 路径是模型给的：只认 DEMO_FILES 自己的键，"constructor" 之类的名字摸不到原型链上去
        if (!Object.hasOwn(DEMO_FILES, path)) throw new Error(`no such file: ${path}`);
        return DEMO_FILES[path];
      },
    },
    {
      spec: { name: "ls", description: "列出某个目录下的文件", input: { dir: "目录，根目录写 ." } },
      handler: ({ dir }) => {
        const prefix = dir === "." ? "" : `${dir.replace(/\/$/, "")}/`;
        return Object.keys(DEMO_FILES).filter((f) => f.startsWith(prefix)).join("\n");
      },
    },
  ];
}

// ── IO 边缘 ──────────────────────────────────────────────
/**
 * core 写出的行从这里打到 stdout。IO 边缘只有它和 main 两处碰终端：main 自己也打演示用的提示行。
 * @since s01
 */
export const consoleOutput: Output = { log: (line) => console.log(line) };

/**
 * 演示：同一个 agent，登记工具前后各问一次；再试一次重复登记。
 * @since s01
 */
export async function main(): Promise<void> {
  const registry = new ToolRegistry();
  const agent: Agent = { state: { messages: [] }, provider: createFakeProvider(), output: consoleOutput, registry };

  console.log("user: 你有哪些工具？");
  await runOneTurn(agent, "你有哪些工具？");

  for (const tool of createDemoTools()) registry.register(tool);
  console.log("user: 现在呢，有哪些工具？");
  await runOneTurn(agent, "现在呢，有哪些工具？");

  try {
    registry.register(createDemoTools()[0]);
  } catch (error) {
    console.log(`再登记一次 read：${describeError(error)}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await main();
}
