// s04_tool_loop —— mini Pi 第 4 版：模型可以在流里要求调工具，core 执行后把结果喂回去，直到它不再要，或撞到 maxTurns。
// 运行：npx tsx s04_tool_loop/code.ts

import { pathToFileURL } from "node:url";
import { z } from "zod";

// ── 消息 ──────────────────────────────────────────────────
/**
 * 一条助手消息为什么结束：说完了、要调工具、出错了。每条助手消息都带着它，出错也一样。
 * @since s01
 */
export type StopReason = "stop" | "toolUse" | "error";

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
 * 一次工具调用的结果，靠 toolCallId 对回是哪次调用。出错时 content 以 "error: " 开头。
 * @since s04
 */
export type ToolResultMessage = { role: "toolResult"; toolCallId: string; content: string };

/**
 * 存进对话历史的消息。以后只会多出新成员，不会少。
 * @since s01
 */
export type AgentMessage = UserMessage | AssistantMessage | ToolResultMessage;

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
export type ProviderMessage =
  | { role: "user" | "assistant"; content: string }
  | { role: "toolResult"; toolCallId: string; content: string };

/**
 * 一次请求发给 provider 的全部内容：对话历史，加上这次能用的工具。
 * @since s01
 */
export type ProviderInput = { messages: ProviderMessage[]; tools: ToolSpec[] };

// ── provider 事件流 ───────────────────────────────────────
/**
 * provider 一边生成一边吐出的事件。一条消息以 message_start 开头、message_end 收尾，中间是一段段文字和工具调用。
 * @since s03
 */
export type ProviderEvent =
  | { type: "message_start" }
  | { type: "text_delta"; text: string }
  | { type: "message_end"; stopReason: StopReason }
  | { type: "tool_call"; call: ToolCall };

/**
 * 模型的接入口。给全部输入，拿回一串事件。
 * @since s01
 * @upgraded s03 (U1)
 */
export interface Provider {
  stream(input: ProviderInput): AsyncGenerator<ProviderEvent>;
}

// ── 工具契约 ──────────────────────────────────────────────
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
 * 模型要求的一次工具调用。id 由模型给出，结果要带着它回去。
 * @since s04
 */
export type ToolCall = { id: string; name: string; input: Record<string, string> };

/**
 * 按名字登记工具。发给模型的工具清单只从这里取。
 * @since s02
 */
export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();

  /** 同名工具登记两次是写错了，直接报错，不悄悄覆盖。 */
  register(tool: Tool): void {
    if (this.tools.has(tool.spec.name)) {
      throw new Error(`tool "${tool.spec.name}" is already registered`);
    }
    this.tools.set(tool.spec.name, tool);
  }

  /** 按登记顺序给出所有工具的说明。 */
  getSpecs(): ToolSpec[] {
    return [...this.tools.values()].map((tool) => tool.spec);
  }

  /**
   * 执行一次调用，永远回一段文字、从不抛错：没有这个工具、参数不对、handler 抛错，都写成 "error: …"。
   * 参数来自模型，不可信，所以先按 spec.input 用 zod 校验，过了才交给 handler。
   */
  run(call: ToolCall): string {
    const tool = this.tools.get(call.name);
    if (tool === undefined) return `error: unknown tool "${call.name}"`;
    const schema = z.strictObject(Object.fromEntries(Object.keys(tool.spec.input).map((key) => [key, z.string()])));
    const parsed = schema.safeParse(call.input);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) =>
        issue.code === "unrecognized_keys"
          ? issue.keys.map((key) => `unexpected argument "${key}"`).join(", ")
          : issue.path.length === 0
            ? "arguments must be an object"
            : `argument "${issue.path.join(".")}" ${Object.hasOwn(call.input, String(issue.path[0])) ? "must be a string" : "is missing"}`,
      );
      return `error: invalid arguments for tool "${call.name}": ${problems.join("; ")}`;
    }
    try {
      return tool.handler(parsed.data);
    } catch (error) {
      return `error: ${describeError(error)}`;
    }
  }
}

// ── 输出 ──────────────────────────────────────────────────
/**
 * core 唯一的出口。core 只管往这里写行，写到终端、文件还是测试里的数组，由调用方决定。
 * @since s01
 */
export type Output = { log(line: string): void };

// ── 组装 ──────────────────────────────────────────────────
/**
 * 一个 agent 由哪些零件组成。以后每节往这里加零件，函数签名不用改。
 * @since s01
 */
export type Agent = { state: AgentState; provider: Provider; output: Output; registry: ToolRegistry };

// ── 组装输入 ──────────────────────────────────────────────
/**
 * 把 agent 的现状拼成一次请求：历史里的消息只留模型要看的字段，工具清单现取自 registry。
 * @since s02
 */
export function buildProviderInput(agent: Agent): ProviderInput {
  return {
    messages: agent.state.messages.map((m): ProviderMessage =>
      m.role === "toolResult" ? { role: m.role, toolCallId: m.toolCallId, content: m.content } : { role: m.role, content: m.content },
    ),
    tools: agent.registry.getSpecs(),
  };
}

// ── 收集事件 ──────────────────────────────────────────────
/**
 * 把一串事件拼成一条助手消息。流中途抛错、或者没等到 message_end 就结束，都不往外抛：
 * 已经收到的文字留着，后面接一行 error 说明，stopReason 记为 "error"。message_end 之后的事件不再读。
 * tool_call 事件不进消息正文，由 recordToolCalls 另外记下。
 * @since s03
 */
export async function collectAssistantMessage(events: AsyncIterable<ProviderEvent>): Promise<AssistantMessage> {
  const parts: string[] = [];
  const failed = (what: string): AssistantMessage => {
    const received = parts.join("");
    return { role: "assistant", content: received === "" ? `error: ${what}` : `${received}\nerror: ${what}`, stopReason: "error" };
  };
  try {
    for await (const event of events) {
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

// ── 工具循环 ──────────────────────────────────────────────
/**
 * 工具循环默认最多问模型几次。没有上限的循环，遇上一直要工具的模型就停不下来。
 * @since s04
 */
export const DEFAULT_MAX_TURNS = 8;

/**
 * 原样转发事件流，顺手把其中的 tool_call 记到 calls 里。collectAssistantMessage 停在 message_end，
 * 所以 message_end 之后的调用不会被记下。
 * @since s04
 */
export async function* recordToolCalls(events: AsyncIterable<ProviderEvent>, calls: ToolCall[]): AsyncGenerator<ProviderEvent> {
  for await (const event of events) {
    if (event.type === "tool_call") calls.push(event.call);
    yield event;
  }
}

/**
 * 工具循环：问模型；它以 "toolUse" 收尾并要了工具，就按顺序执行，把每个结果存进历史，再问一次。
 * 每次的回答都存成一条助手消息，后面跟着它要的每个调用的结果。出错不抛：provider 出错结束循环，
 * 工具出错写成 "error: …" 结果让模型自己看着办。问满 maxTurns 次还没完，就停下并说明原因。
 * @since s04
 */
export async function runEventedToolLoop(agent: Agent, maxTurns: number = DEFAULT_MAX_TURNS): Promise<AssistantMessage> {
  const { state, provider, registry, output } = agent;
  for (let turn = 0; turn < maxTurns; turn++) {
    const calls: ToolCall[] = [];
    let assistant: AssistantMessage;
    try {
      assistant = await collectAssistantMessage(recordToolCalls(provider.stream(buildProviderInput(agent)), calls));
    } catch (error) {
      assistant = { role: "assistant", content: `error: ${describeError(error)}`, stopReason: "error" };
    }
    state.messages.push(assistant);
    if (assistant.content !== "") output.log(`assistant: ${assistant.content}`);
    if (assistant.stopReason !== "toolUse" || calls.length === 0) return assistant;

    for (const call of calls) {
      const result: ToolResultMessage = { role: "toolResult", toolCallId: call.id, content: registry.run(call) };
      state.messages.push(result);
      output.log(`  → ${call.name}(${JSON.stringify(call.input)})`);
      output.log(`  ← ${JSON.stringify(result.content)}`);
    }
  }
  const capped: AssistantMessage = { role: "assistant", content: "max turns reached", stopReason: "stop" };
  state.messages.push(capped);
  output.log(`assistant: ${capped.content}`);
  return capped;
}

// ── 一轮对话 ──────────────────────────────────────────────
/**
 * 把错误对象转成一句人话。provider 可能抛任何东西，不一定是 Error。
 * @since s01
 */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * 跑一轮：存下用户消息，交给工具循环，直到拿到这一轮的最终回答。
 * 出错不往外抛：provider 出错变成一条 stopReason 为 "error" 的助手消息，照样存进历史。
 * @since s01
 */
export async function runOneTurn(agent: Agent, userInput: string): Promise<AssistantMessage> {
  agent.state.messages.push({ role: "user", content: userInput });
  return runEventedToolLoop(agent);
}

// ── 假 provider（离线、确定） ─────────────────────────────
/**
 * 照剧本行事的假模型：只看收到的输入决定下一步，同样的输入永远得到同样的事件，不联网。
 * 用户问某个文件时它去 read；读不到就 ls 那个目录，再读列出来的第一个文件；
 * 问 grep 时调一个不存在的工具；说「一直」时没完没了地 ls。带「崩」「断」「漏」的问题用来演示流出错。
 * @since s01
 */
export function createFakeProvider(): Provider {
  return {
    async *stream(input: ProviderInput): AsyncGenerator<ProviderEvent> {
      const last = input.messages.at(-1);
      const question = input.messages.findLast((m) => m.role === "user")?.content ?? "";
      if (question.includes("崩")) throw new Error("provider unavailable (503)");

      const done = input.messages.filter((m) => m.role === "toolResult").length;
      const callId = `call_${done + 1}`;
      let reply = `收到第 ${input.messages.filter((m) => m.role === "user").length} 个问题：「${question}」。`;
      let call: ToolCall | undefined;
      if (last?.role === "toolResult") {
        const result = last.content;
        const missing = /^error: no such file: (.+)$/.exec(result);
        if (question.includes("一直")) [reply, call] = ["再看一眼。", { id: callId, name: "ls", input: { dir: "." } }];
        else if (missing) {
          const dir = missing[1].includes("/") ? missing[1].slice(0, missing[1].lastIndexOf("/")) : ".";
          [reply, call] = [`没有这个文件，我列一下 ${dir} 看看。`, { id: callId, name: "ls", input: { dir } }];
        } else if (result.startsWith("error:")) reply = `工具报错了（${result}），这一步我没法做。`;
        else if (/^[\w./-]+(\n[\w./-]+)*$/.test(result)) {
          const first = result.split("\n")[0];
          [reply, call] = [`读一下 ${first}。`, { id: callId, name: "read", input: { path: first } }];
        } else reply = `文件内容是：${result}`;
      } else if (question.includes("工具")) {
        const names = input.tools.map((t) => t.name).join(", ");
        reply = input.tools.length > 0 ? `这次我能用的工具：${names}。` : "这次没有给我任何工具。";
      } else if (question.includes("grep")) {
        [reply, call] = ["我用 grep 搜一下。", { id: callId, name: "grep", input: { pattern: "FILE" } }];
      } else if (question.includes("一直")) {
        [reply, call] = ["先列一下目录。", { id: callId, name: "ls", input: { dir: "." } }];
      } else {
        const path = /[\w-]+(\/[\w-]+)*\.\w+/.exec(question)?.[0];
        if (path !== undefined) [reply, call] = [`我先读一下 ${path}。`, { id: callId, name: "read", input: { path } }];
      }

      yield { type: "message_start" };
      for (const piece of reply.match(/.{1,6}/gsu) ?? []) {
        yield { type: "text_delta", text: piece };
        if (question.includes("断")) throw new Error("connection reset");
      }
      if (question.includes("漏")) return;
      if (call !== undefined) yield { type: "tool_call", call };
      yield { type: "message_end", stopReason: call !== undefined ? "toolUse" : "stop" };
    },
  };
}

// ── 演示用的项目、工具和扩展 ───────────────────────────────
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
        const text = DEMO_FILES[path];
        if (text === undefined) throw new Error(`no such file: ${path}`);
        return text;
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

// ── IO 边缘 ───────────────────────────────────────────────
/**
 * 唯一碰终端的地方：把 core 写出的行打到 stdout。
 * @since s01
 */
export const consoleOutput: Output = { log: (line) => console.log(line) };

/**
 * 演示：读一个不存在的文件，看错误怎么喂回模型、模型怎么换条路；再调一个不存在的工具；
 * 最后让模型没完没了地调工具，看 maxTurns 怎么把循环停下。
 * @since s01
 */
export async function main(): Promise<void> {
  const registry = new ToolRegistry();
  for (const tool of createDemoTools()) registry.register(tool);
  const agent: Agent = { state: { messages: [] }, provider: createFakeProvider(), output: consoleOutput, registry };

  for (const question of ["src/app.ts 里写了什么？", "用 grep 搜一下 FILE"]) {
    console.log(`user: ${question}`);
    await runOneTurn(agent, question);
  }

  console.log("user: 一直列目录，别停（这次 maxTurns = 3）");
  agent.state.messages.push({ role: "user", content: "一直列目录，别停" });
  await runEventedToolLoop(agent, 3);
  console.log(`（历史里共 ${agent.state.messages.length} 条消息）`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await main();
}
