// s03_stream —— mini Pi 第 3 版：provider 从一次性返回升级为事件流，core 边收边拼出助手消息。
// 运行：npx tsx s03_stream/code.ts
// 一轮（runOneTurn）：存下用户消息 → buildProviderInput 拼请求 → provider.stream 吐出一串事件
//   collectAssistantMessage 边收边拼：text_delta 接上文字，message_end 定下 stopReason
//   流断了、没收尾、事件不像样：已收到的文字留着，接一行 error，stopReason "error"
//   回答存进历史，经 Output 写一行

import { pathToFileURL } from "node:url";
import { z } from "zod";

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
 * provider 一边生成一边吐出的事件。一条消息以 message_start 开头、message_end 收尾，中间是一段段文字。
 * @since s03
 */
export type ProviderEvent =
  | { type: "message_start" }
  | { type: "text_delta"; text: string }
  | { type: "message_end"; stopReason: StopReason };

/**
 * 模型的接入口。给全部输入，拿回一串事件。
 * @since s01
 * @upgraded s03 (U1)
 */
export interface Provider {
  stream(input: ProviderInput): AsyncGenerator<ProviderEvent>;
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

// ── 收集事件 ─────────────────────────────────────────────
/**
 * 把一串事件拼成一条助手消息。流中途抛错、或者没等到 message_end 就结束，都不往外抛：
 * 已经收到的文字留着，后面接一行 error 说明，stopReason 记为 "error"。message_end 之后的事件不再读。
 * @since s03
 */
export async function collectAssistantMessage(events: AsyncIterable<ProviderEvent>): Promise<AssistantMessage> {
  const parts: string[] = [];
  const failed = (what: string): AssistantMessage => {
    const received = parts.join("");
    return { role: "assistant", content: received === "" ? `error: ${what}` : `${received}\nerror: ${what}`, stopReason: "error" };
  };
  try {
    for await (const raw of events) {
      // 事件是外来的数据：先校验，不像样就抛错，由下面的 catch 收成一条出错的回答
      const event = parseProviderEvent(raw);
      switch (event.type) {
        case "text_delta":
          parts.push(event.text);
          break;
        case "message_end":
          return { role: "assistant", content: parts.join(""), stopReason: event.stopReason };
      }
    }
  } catch (error) {
    return failed(describeError(error));
  }
  return failed("stream ended without message_end");
}

// ── 一轮对话 ─────────────────────────────────────────────
/**
 * 跑一轮：存下用户消息，问 provider，边收事件边拼出回答，存下回答，再把回答写到输出。
 * provider 抛错不往外抛：它变成一条 stopReason 为 "error" 的助手消息，照样存进历史。
 * @since s01
 */
export async function runOneTurn(agent: Agent, userInput: string): Promise<AssistantMessage> {
  const { state, provider, output } = agent;
  state.messages.push({ role: "user", content: userInput });
  let assistant: AssistantMessage;
  try {
    // 流里面的错，collectAssistantMessage 自己会转成消息；不是生成器写法的 stream() 可能在交出事件流之前就抛错，那就在这里接住
    assistant = await collectAssistantMessage(provider.stream(buildProviderInput(agent)));
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

/**
 * 它是不是 Promise（或别的带 then 方法的东西）。连 then 都读不出来的值（撤销了的 Proxy）不算。
 * @since s03
 */
export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  try {
    return typeof (value as { then?: unknown } | null | undefined)?.then === "function";
  } catch {
    return false;
  }
}

/**
 * 把一个不知底细的值写成一小段文字，放进错误说明里，好让人看到「收到的到底是什么」：能写成 JSON 的照 JSON 写，
 * 函数和 Promise 直说是什么，剩下的交给 describeError。它自己从不抛错。
 * @since s03
 */
export function describeValue(value: unknown): string {
  if (typeof value === "function") return "a function";
  if (isPromiseLike(value)) return "a Promise";
  try {
    return JSON.stringify(value) ?? describeError(value);
  } catch {
    // 写不成 JSON：BigInt、循环引用、嵌得太深、toJSON 自己抛错……
    return describeError(value);
  }
}

/**
 * 事件该有的形状，用 zod 写出来。事件来自 provider，是外来的数据：每个事件都先照它校验（合规的文字增量走 parseProviderEvent 里的快路）。
 * @since s03
 */
export const ProviderEventSchema: z.ZodType<ProviderEvent> = z.discriminatedUnion("type", [
  z.object({ type: z.literal("message_start") }),
  z.object({ type: z.literal("text_delta"), text: z.string() }),
  z.object({ type: z.literal("message_end"), stopReason: z.enum(["stop", "error"]) }),
]);

/**
 * 校验一个从 provider 来的事件，合规就交回一份干净的拷贝；不合规就抛错，说明里写着收到的是什么（读一下就抛错的怪事件，抛的就是那个错）。
 * @since s03
 */
export function parseProviderEvent(raw: unknown): ProviderEvent {
  // 文字增量最常见（一条长回答有成千上万个），合规的一眼就认得出：直接放过，省下每个都过一遍 zod 的开销
  if (typeof raw === "object" && raw !== null && !Array.isArray(raw) && (raw as { type?: unknown }).type === "text_delta") {
    const text: unknown = (raw as { text?: unknown }).text;
    if (typeof text === "string") return { type: "text_delta", text };
  }
  const parsed = ProviderEventSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`invalid event from provider: ${describeValue(raw)}`);
  return parsed.data;
}

// ── 假 provider（离线、确定） ────────────────────────────
/**
 * 照剧本行事的假模型：只看收到的输入决定怎么回答，同样的输入永远得到同样的回答，不联网。
 * 剧本是下面那张 script 表，一行一种问法。从上往下找第一行对得上的，照它回答；一行都对不上，就复述问题，
 * 并报出这是第几个问题（数的是请求里的用户消息，正好看出每次请求都带着完整历史）。
 * 问题里带「崩」「断」「漏」字时另有安排，用来演示流出错：一开口就抛错、说到一半断了、说完了却不收尾。
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
    async *stream(input: ProviderInput): AsyncGenerator<ProviderEvent> {
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

      yield { type: "message_start" };
      for (const piece of reply.text.match(/.{1,6}/gsu) ?? []) {
        yield { type: "text_delta", text: piece };
        if (question.includes("断")) throw new Error("connection reset");
      }
      if (question.includes("漏")) return;
      yield { type: "message_end", stopReason: "stop" };
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
 * 演示：一次正常的流式回答，把每个事件都打出来；再看流断在半路、流没收尾时 core 拼出了什么。
 * @since s01
 */
export async function main(): Promise<void> {
  const registry = new ToolRegistry();
  for (const tool of createDemoTools()) registry.register(tool);
  const agent: Agent = { state: { messages: [] }, provider: createFakeProvider(), output: consoleOutput, registry };

  console.log("— provider 吐出的事件：");
  for await (const event of agent.provider.stream({ messages: [{ role: "user", content: "你有哪些工具？" }], tools: registry.getSpecs() })) {
    console.log(`  ${JSON.stringify(event)}`);
  }

  for (const question of ["你有哪些工具？", "说到一半断了", "结尾漏了"]) {
    console.log(`user: ${question}`);
    await runOneTurn(agent, question);
  }
  console.log(`（历史里共 ${agent.state.messages.length} 条消息）`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await main();
}
