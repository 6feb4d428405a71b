// s10_modes —— mini Pi 第 10 版：core 不再自己写行，把一轮的事件交给运行模式去呈现：给人看的文字，或给程序读的 JSON 行。
// 运行：npx tsx s10_modes/code.ts

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
 * agent 跨轮保存的东西：对话历史（一棵树），和下一轮用哪个模型。
 * @since s01
 * @upgraded s07 (U1)
 */
export type AgentState = { messages: SessionTree; model: string };

// ── 会话树 ────────────────────────────────────────────────
/**
 * 树上的一个节点：一条消息，外加它的 id 和父节点 id。toolCallId、stopReason 跟着原消息走，取回时原样还原。
 * @since s07
 */
export type SessionEntry = {
  id: string;
  parentId: string | null;
  role: "user" | "assistant" | "toolResult";
  content: string;
  toolCallId?: string;
  stopReason?: StopReason;
};

/**
 * 对话历史的树。新消息总是挂在「当前叶子」下面；moveTo 换叶子，就是回到那一步另起一个分支。
 * 只增不删：换过去、换回来，每条旧消息都还在。id 按追加顺序编号（e1、e2……），同样的操作得到同样的 id。
 * @since s07
 */
export class SessionTree {
  private readonly entries = new Map<string, SessionEntry>();
  private leafId: string | null = null;

  /** 把一条消息挂到当前叶子下面，它成为新的叶子。 */
  append(msg: AgentMessage): SessionEntry {
    const entry: SessionEntry = { id: `e${this.entries.size + 1}`, parentId: this.leafId, role: msg.role, content: msg.content };
    if (msg.role === "assistant") entry.stopReason = msg.stopReason;
    if (msg.role === "toolResult") entry.toolCallId = msg.toolCallId;
    this.entries.set(entry.id, entry);
    this.leafId = entry.id;
    return { ...entry };
  }

  /** 把叶子移到某个已有节点。id 不存在是调用方写错了：报错，树保持原样。 */
  moveTo(id: string): void {
    if (!this.entries.has(id)) throw new Error(`moveTo: no entry with id "${id}"`);
    this.leafId = id;
  }

  /** 从根走到当前叶子，还原成一串消息——provider 看到的就是这条路径。 */
  currentPath(): AgentMessage[] {
    const path: AgentMessage[] = [];
    for (let id = this.leafId; id !== null; ) {
      const entry = this.entries.get(id);
      if (entry === undefined) throw new Error(`corrupt tree: entry "${id}" is missing`);
      path.push(toAgentMessage(entry));
      id = entry.parentId;
    }
    return path.reverse();
  }

  /** 全部节点，按追加顺序；包括不在当前路径上的分支。 */
  allEntries(): SessionEntry[] {
    return [...this.entries.values()].map((entry) => ({ ...entry }));
  }
}

/**
 * 节点还原成消息：按角色取回各自的字段。
 * @since s07
 */
export function toAgentMessage(entry: SessionEntry): AgentMessage {
  switch (entry.role) {
    case "user":
      return { role: "user", content: entry.content };
    case "assistant":
      return { role: "assistant", content: entry.content, stopReason: entry.stopReason ?? "stop" };
    case "toolResult":
      return { role: "toolResult", toolCallId: entry.toolCallId ?? "", content: entry.content };
  }
}


// ── 发给模型的输入 ────────────────────────────────────────
/**
 * provider 眼里的一条消息：只留模型需要的字段。
 * @since s01
 */
export type ProviderMessage =
  | { role: "user" | "assistant"; content: string }
  | { role: "toolResult"; toolCallId: string; content: string };

/**
 * 一次请求发给 provider 的全部内容：系统提示、对话历史、这次能用的工具。
 * 系统提示是「这个 agent 是谁、在什么项目里」，对话历史是「聊到哪了」，两件事分开放。
 * @since s01
 */
export type ProviderInput = { systemPrompt: string; messages: ProviderMessage[]; tools: ToolSpec[] };

/**
 * 一轮开始时定下来的输入：系统提示、历史、工具都在这一刻定死。这一轮的每次请求都从它出发，只在后面接上本轮自己新产生的消息。
 * 模型不在这里，它是跨轮配置，放在 AgentState。
 * @since s06
 */
export type TurnSnapshot = { systemPrompt: string; messages: ProviderMessage[]; tools: ToolSpec[] };

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

// ── 钩子 ──────────────────────────────────────────────────
/**
 * beforeToolCall 的答复：放行，或者拦下并说明原因。
 * @since s05
 */
export type BeforeToolCallResult = { type: "allow" } | { type: "block"; reason: string };

/**
 * 套在工具执行外面的两个钩子。都是可选的；不装就是原样执行。
 * @since s05
 */
export type ToolHooks = {
  beforeToolCall?: (call: ToolCall) => BeforeToolCallResult;
  afterToolCall?: (call: ToolCall, result: string) => string;
};

/**
 * 执行一次调用，外面套上钩子：先问 beforeToolCall，拦下就不碰 handler；放行就交给 registry，
 * 再让 afterToolCall 改写结果。钩子自己抛错也只变成一条 "error: …" 结果，循环照常往下走。
 * @since s05
 */
export function executeToolCall(registry: ToolRegistry, hooks: ToolHooks, call: ToolCall): ToolResultMessage {
  const result = (content: string): ToolResultMessage => ({ role: "toolResult", toolCallId: call.id, content });
  try {
    const decision = hooks.beforeToolCall?.(call) ?? { type: "allow" };
    if (decision.type === "block") return result(`error: blocked: ${decision.reason}`);
    const raw = registry.run(call);
    return result(hooks.afterToolCall?.(call, raw) ?? raw);
  } catch (error) {
    return result(`error: hook failed: ${describeError(error)}`);
  }
}

// ── 上下文资源 ────────────────────────────────────────────
/**
 * 一份项目资料。agents 是项目说明（如 AGENTS.md），全文进系统提示；skill 是技能，只把名字和第一行
 * 说明放进索引，要用时模型再去读全文；prompt 是追加到系统提示末尾的一段话。
 * @since s08
 */
export type ContextResource = { kind: "agents" | "skill" | "prompt"; name: string; content: string };

/**
 * 资料的来源。现在只是把构造时给的资料原样交出去。
 * @since s08
 */
export class ResourceLoader {
  constructor(private resources: ContextResource[]) {}

  /** 交出全部资料（一份拷贝，调用方改了也不影响下次）。 */
  load(): ContextResource[] {
    return this.resources.map((resource) => ({ ...resource }));
  }
}

/**
 * 系统提示开头那段固定的话。
 * @since s08
 */
export const SYSTEM_PREAMBLE = "你是 mini Pi，一个在用户项目里干活的编程助手。需要看文件时就调用工具，不要猜。";

/**
 * 用资料拼出系统提示：固定开场白，项目说明全文，技能索引，最后是追加提示。没有资料时只有开场白。
 * @since s08
 */
export function buildSystemPrompt(resources: ContextResource[]): string {
  const of = (kind: ContextResource["kind"]): ContextResource[] => resources.filter((r) => r.kind === kind);
  const sections = [SYSTEM_PREAMBLE];
  const agents = of("agents");
  if (agents.length > 0) {
    sections.push(["# 项目说明", ...agents.map((r) => `## ${r.name}\n${r.content.trim()}`)].join("\n\n"));
  }
  const skills = of("skill");
  if (skills.length > 0) {
    const index = skills.map((r) => `- ${r.name}: ${r.content.trim().split("\n")[0].replace(/^#+\s*/, "")}`);
    sections.push(["# 可用技能", ...index].join("\n"));
  }
  sections.push(...of("prompt").map((r) => r.content.trim()));
  return sections.join("\n\n");
}

// ── 扩展 ──────────────────────────────────────────────────
/**
 * 用户按名字直接跑的命令，不经过模型。
 * @since s09
 */
export type Command = { name: string; run: () => string };

/**
 * core 对外广播的事件：这一轮新存下一条消息（助手回答或工具结果），或者这一轮结束了。
 * @since s09
 */
export type RuntimeEvent = { type: "message"; content: string } | { type: "done" };

/**
 * 扩展能碰到的全部能力：订阅事件、登记工具、登记命令。工具就是 s02 的 Tool，进的是同一个 registry。
 * @since s09
 */
export type ExtensionAPI = {
  on(type: RuntimeEvent["type"], handler: (e: RuntimeEvent) => void): void;
  registerTool(tool: Tool): void;
  registerCommand(cmd: Command): void;
};

/**
 * 一个扩展就是一个函数：拿到 api，登记它要加的东西。
 * @since s09
 */
export type Extension = (api: ExtensionAPI) => void;

/**
 * 装扩展、发事件、跑命令的地方。它持有 agent 现有的 ToolRegistry，扩展登记的工具和内置工具走同一条执行链。
 * 扩展出错只记进 errors，不往外抛：装到一半抛错的扩展一样东西都不留，别的扩展照常工作。
 * @since s09
 */
export class ExtensionRuntime {
  private readonly handlers: Array<{ type: RuntimeEvent["type"]; handler: (e: RuntimeEvent) => void }> = [];
  private readonly commands = new Map<string, Command>();
  /** 扩展出过的错，每条都以 "error: " 开头，按发生顺序。 */
  readonly errors: string[] = [];

  constructor(private readonly registry: ToolRegistry) {}

  /** 装一个扩展。它登记的东西先记在一边，扩展函数顺利跑完才一起生效。 */
  use(ext: Extension): void {
    // 具名函数、赋给变量的箭头函数，JS 都会给它一个 name；错误信息靠它点名是哪个扩展。
    const name = ext.name || "anonymous";
    const tools: Tool[] = [];
    const commands: Command[] = [];
    const handlers: ExtensionRuntime["handlers"] = [];
    const taken = new Set(this.registry.getSpecs().map((spec) => spec.name));
    // 登记只在装的时候算数：扩展把 api 存起来、过后再登记，会被清楚地拒绝，而不是悄悄丢掉。
    let loading = true;
    const whileLoading = (what: string): void => {
      if (!loading) throw new Error(`extension "${name}" tried to ${what} after it finished loading`);
    };
    try {
      ext({
        on: (type, handler) => {
          whileLoading(`listen to "${type}"`);
          handlers.push({ type, handler });
        },
        registerTool: (tool) => {
          whileLoading(`register tool "${tool.spec.name}"`);
          if (taken.has(tool.spec.name)) throw new Error(`tool "${tool.spec.name}" is already registered`);
          taken.add(tool.spec.name);
          tools.push(tool);
        },
        registerCommand: (cmd) => {
          whileLoading(`register command "${cmd.name}"`);
          if (this.commands.has(cmd.name) || commands.some((c) => c.name === cmd.name)) {
            throw new Error(`command "${cmd.name}" is already registered`);
          }
          commands.push(cmd);
        },
      });
    } catch (error) {
      this.errors.push(`error: extension "${name}" failed to load: ${describeError(error)}`);
      return;
    } finally {
      loading = false;
    }
    for (const tool of tools) this.registry.register(tool);
    for (const cmd of commands) this.commands.set(cmd.name, cmd);
    this.handlers.push(...handlers);
  }

  /** 把事件发给所有订阅了这种事件的处理函数。一个处理函数抛错，记下来，接着发给下一个。 */
  emit(event: RuntimeEvent): void {
    for (const { type, handler } of this.handlers) {
      if (type !== event.type) continue;
      try {
        handler(event);
      } catch (error) {
        this.errors.push(`error: handler for "${type}" failed: ${describeError(error)}`);
      }
    }
  }

  /** 按名字跑命令。没有这个命令、命令自己抛错，都回一句 "error: …"。 */
  runCommand(name: string): string {
    const cmd = this.commands.get(name);
    if (cmd === undefined) return `error: unknown command "${name}"`;
    try {
      return cmd.run();
    } catch (error) {
      return `error: command "${name}" failed: ${describeError(error)}`;
    }
  }
}

// ── 输出 ──────────────────────────────────────────────────
/**
 * core 唯一的出口。core 只管往这里写行，写到终端、文件还是测试里的数组，由调用方决定。
 * @since s01
 */
export type Output = { log(line: string): void };

// ── 运行模式 ──────────────────────────────────────────────
/**
 * 一轮结束时，怎么把这一轮的事件呈现出来。core 只管交出事件，不关心呈现给谁。
 * @since s10
 */
export type RuntimeMode = { render(events: RuntimeEvent[]): void };

/**
 * 给人看：每轮只打最终回答，也就是 done 之前的最后一条消息。
 * @since s10
 */
export class PrintMode implements RuntimeMode {
  constructor(private readonly output: Output) {}

  render(events: RuntimeEvent[]): void {
    let last: string | undefined;
    for (const event of events) {
      if (event.type === "message") last = event.content;
      else if (last !== undefined) {
        this.output.log(last);
        last = undefined;
      }
    }
  }
}

/**
 * 给程序读：每个事件一行 JSON。内容里的换行、引号、控制字符都由 JSON 转义；
 * U+2028/U+2029 在 JSON 里合法，但有些按行读的程序会把它们当换行，所以也转义掉。
 * @since s10
 */
export class JsonMode implements RuntimeMode {
  constructor(private readonly output: Output) {}

  render(events: RuntimeEvent[]): void {
    for (const event of events) {
      this.output.log(JSON.stringify(event).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029"));
    }
  }
}

// ── 组装 ──────────────────────────────────────────────────
/**
 * 一个 agent 由哪些零件组成。以后每节往这里加零件，函数签名不用改。
 * @since s01
 */
export type Agent = {
  state: AgentState;
  provider: Provider;
  output: Output;
  registry: ToolRegistry;
  hooks: ToolHooks;
  /** 按模型名挑 provider；state.model 不在这里时用 provider。 */
  providers?: Record<string, Provider>;
  loader: ResourceLoader;
  runtime: ExtensionRuntime;
  mode: RuntimeMode;
};

// ── 组装输入 ──────────────────────────────────────────────
/**
 * 一条历史消息在 provider 眼里的样子：只留模型要看的字段。
 * @since s06
 */
export function toProviderMessage(m: AgentMessage): ProviderMessage {
  return m.role === "toolResult" ? { role: m.role, toolCallId: m.toolCallId, content: m.content } : { role: m.role, content: m.content };
}

/**
 * 把 agent 的现状拼成一次请求：系统提示现拼自 loader 给的资料；历史取树上从根到当前叶子的那条路径，
 * 只留模型要看的字段；工具清单现取自 registry。
 * @since s02
 */
export function buildProviderInput(agent: Agent): ProviderInput {
  return {
    systemPrompt: buildSystemPrompt(agent.loader.load()),
    messages: agent.state.messages.currentPath().map(toProviderMessage),
    tools: agent.registry.getSpecs(),
  };
}

/**
 * 给一次输入拍快照：整份复制，之后谁再改 state 或 registry，都碰不到这一份。
 * @since s06
 */
export function createTurnSnapshot(input: ProviderInput): TurnSnapshot {
  return structuredClone(input);
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
 * 每个调用都经过 executeToolCall，钩子在那里生效。
 * 这一轮的每次请求都基于开头拍的快照，后面只接上本轮自己产生的消息；模型也在开头定下。
 * 每存下一条消息就广播一个 message 事件，结束时广播 done，再把这一轮的全部事件交给运行模式呈现。
 * @since s04
 */
export async function runEventedToolLoop(agent: Agent, maxTurns: number = DEFAULT_MAX_TURNS): Promise<AssistantMessage> {
  const { state, registry, hooks, runtime, mode } = agent;
  // 一轮开始：拍快照，定下模型。这一轮里别人往 state 加消息、往 registry 加工具，都等下一轮再生效。
  const snapshot = createTurnSnapshot(buildProviderInput(agent));
  const provider = agent.providers?.[state.model] ?? agent.provider;
  const own: ProviderMessage[] = [];
  const events: RuntimeEvent[] = [];
  const emit = (event: RuntimeEvent): void => {
    events.push(event);
    runtime.emit(event);
  };
  const keep = (message: AgentMessage): void => {
    state.messages.append(message);
    own.push(toProviderMessage(message));
    emit({ type: "message", content: message.content });
  };
  const finish = (message: AssistantMessage): AssistantMessage => {
    emit({ type: "done" });
    mode.render(events);
    return message;
  };

  for (let turn = 0; turn < maxTurns; turn++) {
    const calls: ToolCall[] = [];
    const input: ProviderInput = { ...snapshot, messages: [...snapshot.messages, ...own] };
    let assistant: AssistantMessage;
    try {
      assistant = await collectAssistantMessage(recordToolCalls(provider.stream(input), calls));
    } catch (error) {
      assistant = { role: "assistant", content: `error: ${describeError(error)}`, stopReason: "error" };
    }
    keep(assistant);
    if (assistant.stopReason !== "toolUse" || calls.length === 0) return finish(assistant);

    for (const call of calls) {
      const result = executeToolCall(registry, hooks, call);
      keep(result);
    }
  }
  const capped: AssistantMessage = { role: "assistant", content: "max turns reached", stopReason: "stop" };
  keep(capped);
  return finish(capped);
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
  agent.state.messages.append({ role: "user", content: userInput });
  return runEventedToolLoop(agent);
}

// ── 假 provider（离线、确定） ─────────────────────────────
/**
 * 照剧本行事的假模型：只看收到的输入决定下一步，同样的输入永远得到同样的事件，不联网。
 * 用户问某个文件时它去 read；读不到就 ls 那个目录，再读列出来的第一个文件；
 * 问 grep 时调一个不存在的工具；说「一直」时没完没了地 ls；说「删掉 A，再读 B」时一次要两个调用。
 * 问「提交记录」时看工具清单里有没有 git_log：有就调，没有但让它「打开」就调 enable_git。
 * 问「规矩」时照系统提示里的项目说明回答；说「数一下」某个文件时调扩展加的 wc。
 * 带「崩」「断」「漏」的问题用来演示流出错。
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
      const extra: ToolCall[] = [];
      const paths = question.match(/[\w-]+(\/[\w-]+)*\.\w+/g) ?? [];
      const offered = input.tools.map((t) => t.name);
      if (question.includes("数一下") && last?.role === "toolResult") {
        reply = `数好了：${last.content}`;
      } else if (question.includes("数一下")) {
        const path = /[\w-]+(\/[\w-]+)*\.\w+/.exec(question)?.[0] ?? "";
        [reply, call] = [`用 wc 数一下 ${path}。`, { id: callId, name: "wc", input: { path } }];
      } else if (question.includes("规矩")) {
        const rules = /# 项目说明\n\n## .+\n(.+)/.exec(input.systemPrompt)?.[1];
        reply = rules === undefined ? "系统提示里没有项目说明，我不知道这个项目的规矩。" : `项目说明里写着：${rules}`;
      } else if (question.includes("提交记录") && last?.role !== "toolResult") {
        if (offered.includes("git_log")) call = { id: callId, name: "git_log", input: {} };
        else if (question.includes("打开")) call = { id: callId, name: "enable_git", input: {} };
        reply = call === undefined ? "我手上没有 git 工具。" : `调用 ${call.name}。`;
      } else if (question.includes("提交记录") && last !== undefined) {
        reply = offered.includes("git_log")
          ? `最近的提交：${last.content}`
          : `git 工具打开了（${last.content}），但这一轮我拿到的工具清单里还没有 git_log：${offered.join(", ")}。`;
      } else if (last?.role === "toolResult" && question.includes("删掉")) {
        const results = input.messages.slice(input.messages.findLastIndex((m) => m.role === "assistant") + 1);
        reply = results.map((r) => (r.content.startsWith("error:") ? `有一步没做成（${r.content}）` : `读到了：${r.content}`)).join("；");
      } else if (question.includes("删掉")) {
        const [target = "", other = ""] = paths;
        reply = `先删 ${target}，再读 ${other}。`;
        call = { id: callId, name: "rm", input: { path: target } };
        extra.push({ id: `call_${done + 2}`, name: "read", input: { path: other } });
      } else if (last?.role === "toolResult") {
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
      for (const c of call !== undefined ? [call, ...extra] : []) yield { type: "tool_call", call: c };
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
  "src/config.ts": "export const API_KEY = 'sk-live-8f2a91';",
};

/**
 * 演示用的工具，工作在 DEMO_FILES 上：两个只读的，一个会删文件的。
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
    {
      spec: { name: "rm", description: "删除一个文件", input: { path: "文件路径" } },
      handler: ({ path }) => {
        if (!(path in DEMO_FILES)) throw new Error(`no such file: ${path}`);
        delete DEMO_FILES[path];
        return `deleted ${path}`;
      },
    },
  ];
}

/**
 * 演示用的权限闸：删除类工具一律拦下；读到的内容里像密钥的串打上码。
 * @since s05
 */
export function createPermissionGate(): ToolHooks {
  return {
    beforeToolCall: (call) =>
      call.name === "rm" ? { type: "block", reason: `删除 ${call.input.path} 需要人来确认` } : { type: "allow" },
    afterToolCall: (_call, result) => result.replace(/sk-[\w-]+/g, "sk-***"),
  };
}

/**
 * 把整棵树画成缩进文本，方便在终端里看分支。
 * @since s07
 */
export function renderTree(entries: SessionEntry[]): string[] {
  const children = new Map<string | null, SessionEntry[]>();
  for (const entry of entries) children.set(entry.parentId, [...(children.get(entry.parentId) ?? []), entry]);
  const lines: string[] = [];
  const walk = (parentId: string | null, depth: number): void => {
    for (const entry of children.get(parentId) ?? []) {
      lines.push(`${"  ".repeat(depth)}${entry.id} ${entry.role}: ${entry.content}`);
      walk(entry.id, depth + 1);
    }
  };
  walk(null, 0);
  return lines;
}

/**
 * 演示用的项目资料：一份项目说明、一个技能、一段追加提示。
 * @since s08
 */
export function createDemoResources(): ContextResource[] {
  return [
    { kind: "agents", name: "AGENTS.md", content: "用 pnpm，不要用 npm。提交前先跑 pnpm test。" },
    { kind: "skill", name: "release", content: "发布新版本：打 tag、写 changelog。\n1. pnpm version patch\n2. 更新 CHANGELOG.md" },
    { kind: "prompt", name: "style", content: "回答用中文，先给结论。" },
  ];
}

/**
 * 演示扩展：加一个数字符的工具 wc、一个命令 stats，并订阅事件，数这一轮存下了几条消息。
 * @since s09
 */
export const statsExtension: Extension = (api) => {
  let messages = 0;
  let turns = 0;
  api.on("message", () => void messages++);
  api.on("done", () => void turns++);
  api.registerTool({
    spec: { name: "wc", description: "数一个文件有多少个字符", input: { path: "文件路径" } },
    handler: ({ path }) => {
      const text = DEMO_FILES[path];
      if (text === undefined) throw new Error(`no such file: ${path}`);
      return `${path} 共 ${[...text].length} 个字符`;
    },
  });
  api.registerCommand({ name: "stats", run: () => `已完成 ${turns} 轮，存下 ${messages} 条消息` });
};

/**
 * 演示扩展：装到一半就抛错，用来看它会不会连累别人。
 * @since s09
 */
export const brokenExtension: Extension = (api) => {
  api.registerCommand({ name: "half", run: () => "不该出现" });
  throw new Error("config file missing");
};

// ── IO 边缘 ───────────────────────────────────────────────
/**
 * 唯一碰终端的地方：把 core 写出的行打到 stdout。
 * @since s01
 */
export const consoleOutput: Output = { log: (line) => console.log(line) };

/**
 * 演示：同一个问题，分别用 PrintMode 和 JsonMode 跑一遍，看同一串事件的两种呈现。
 * @since s01
 */
export async function main(): Promise<void> {
  const registry = new ToolRegistry();
  for (const tool of createDemoTools()) registry.register(tool);
  const runtime = new ExtensionRuntime(registry);
  runtime.use(statsExtension);
  const makeAgent = (mode: RuntimeMode): Agent => ({
    state: { messages: new SessionTree(), model: "fake-model" },
    provider: createFakeProvider(),
    output: consoleOutput,
    registry,
    hooks: createPermissionGate(),
    loader: new ResourceLoader(createDemoResources()),
    runtime,
    mode,
  });

  const question = "数一下 README.md 有多少字";
  console.log(`— PrintMode｜user: ${question}`);
  await runOneTurn(makeAgent(new PrintMode(consoleOutput)), question);
  console.log(`— JsonMode｜user: ${question}`);
  await runOneTurn(makeAgent(new JsonMode(consoleOutput)), question);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await main();
}
