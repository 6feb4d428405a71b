// s12_packages —— mini Pi 第 12 版（完整版）：能力打成包分发，装包时把工具、命令、资料接回已有的 registry、扩展运行时和 loader。
// 运行：npx tsx s12_packages/code.ts（npm start）
// 一轮（runOneTurn）：用户消息挂到会话树的当前叶子下 → runEventedToolLoop：
//   开头拍快照：系统提示 = buildSystemPrompt(loader.load(agent.trust))，历史取 currentPath，工具取 registry
//   最多问 maxTurns 次；每个调用经 executeToolCall（钩子包着 registry.run），每条消息挂到树上并记一个 message 事件
//   结束时记一个 done，把这一轮的事件交给 mode.render
// 旁路：installPackage(agent, loadPackage(包)) 经一个扩展登记包里的工具和命令，资料叠一层 loader

import { pathToFileURL } from "node:url";
import { z } from "zod";

// ── 消息和历史 ───────────────────────────────────────────
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

/**
 * agent 跨轮保存的东西：对话历史（一棵树），和下一轮用哪个模型。
 * @since s01
 * @upgraded s07 (U1)
 */
export type AgentState = { messages: SessionTree; model: string };

// ── 会话树 ───────────────────────────────────────────────
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

// ── 模型：发给它的输入，它的接入口 ───────────────────────
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
 * 模型要求的一次工具调用。id 由模型给出，结果要带着它回去。
 * @since s04
 */
export type ToolCall = { id: string; name: string; input: Record<string, string> };

/**
 * 按名字登记工具，按名字执行调用。发给模型的工具清单只从这里取。
 * @since s02
 */
export class ToolRegistry {
  // 每个工具连同它的参数 schema 一起存：schema 登记时建一次，以后每次调用直接拿来校验（存的 spec 是登记时的拷贝，不会再变）
  private readonly tools = new Map<string, { tool: Tool; args: z.ZodType<Record<string, string>> }>();

  /**
   * 同名工具登记两次是写错了，直接报错，不悄悄覆盖。形状不对的工具同样报错。
   * 存下的是一份拷贝：登记以后谁再改原来那个对象，都影响不到这里。
   */
  register(tool: Tool): void {
    // 工具也可能来自扩展这样的外来代码：先校验形状，存下的是校验时做的干净拷贝
    const checked = parseTool(tool);
    if (this.tools.has(checked.spec.name)) {
      throw new Error(`tool "${checked.spec.name}" is already registered`);
    }
    this.tools.set(checked.spec.name, { tool: checked, args: argumentsSchema(checked.spec) });
  }

  /** 按登记顺序给出所有工具的说明。给出去的是拷贝：拿到清单的人（比如 provider）改了它，也改不到登记在这里的工具。 */
  getSpecs(): ToolSpec[] {
    return [...this.tools.values()].map(({ tool: { spec } }) => ({ ...spec, input: { ...spec.input } }));
  }

  /** 执行一次调用，永远回一段文字、从不抛错：没有这个工具、参数不对、handler 抛错、handler 回的不是文字，都写成 "error: …"。 */
  run(call: ToolCall): string {
    const entry = this.tools.get(call.name);
    if (entry === undefined) return `error: unknown tool "${call.name}"`;
    let output: unknown;
    try {
      // 参数是模型给的，不可信：先照 spec.input 校验，过了才交给 handler
      output = entry.tool.handler(parseArguments(entry.args, call));
    } catch (error) {
      return `error: ${describeError(error)}`;
    }
    return expectText(output, `tool "${call.name}"`);
  }
}

// ── 钩子 ─────────────────────────────────────────────────
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
 * 再让 afterToolCall 改写结果。钩子自己抛错、答得不成样子，也只变成一条 "error: …" 结果，循环照常往下走。
 * @since s05
 */
export function executeToolCall(registry: ToolRegistry, hooks: ToolHooks, call: ToolCall): ToolResultMessage {
  // 结果回答的是模型发来的那个调用：id 先记下，钩子就算改了 call.id，配对也不会乱
  const id = call.id;
  const result = (content: string): ToolResultMessage => ({ role: "toolResult", toolCallId: id, content });
  try {
    const decision: BeforeToolCallResult = hooks.beforeToolCall === undefined ? { type: "allow" } : parseBeforeToolCallResult(hooks.beforeToolCall(call));
    if (decision.type === "block") return result(`error: blocked: ${decision.reason}`);
    const raw = registry.run(call);
    // afterToolCall 回的就是最终结果，也得是文字；回了别的，宁可报错，也不把没处理过的结果原样交出去
    return result(hooks.afterToolCall === undefined ? raw : expectText(hooks.afterToolCall(call, raw), "hook failed: afterToolCall"));
  } catch (error) {
    // 钩子出了岔子：beforeToolCall 抛错、答得不成样子，调用不执行；afterToolCall 出错，这次的结果作废
    return result(`error: hook failed: ${describeError(error)}`);
  }
}

// ── 上下文资源 ───────────────────────────────────────────
/**
 * 一份项目资料。agents 是项目说明（如 AGENTS.md），全文进系统提示；skill 是技能，只把名字和第一行
 * 说明放进索引，要用时模型再去读全文；prompt 是追加到系统提示末尾的一段话。
 * @since s08
 */
export type ContextResource = { kind: "agents" | "skill" | "prompt"; name: string; content: string };

/**
 * 用户对这个项目的信任。不信任的项目，它带来的资料一份都不加载。
 * @since s11
 */
export type ProjectTrust = "trusted" | "untrusted";

/**
 * 资料的来源。加载前先看信任：不信任就什么都不给，信任就全部交出去。
 * @since s08
 * @upgraded s11 (U1)
 */
export class ResourceLoader {
  constructor(private resources: ContextResource[]) {}

  /** 按信任交出资料（一份拷贝，调用方改了也不影响下次）。 */
  load(trust: ProjectTrust): ContextResource[] {
    if (trust !== "trusted") return [];
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
export type Agent = {
  state: AgentState;
  provider: Provider;
  /** s10 起 core 不再直接写它，输出都交给 mode。字段不删：照前几节的写法组装 agent 的代码还在传它，删了就编译不过。 */
  output: Output;
  registry: ToolRegistry;
  hooks: ToolHooks;
  /** 按模型名挑 provider；state.model 不在这里时用 provider。 */
  providers?: Record<string, Provider>;
  loader: ResourceLoader;
  runtime: ExtensionRuntime;
  mode: RuntimeMode;
  trust: ProjectTrust;
  /** 已经装上的包名。同名的包不装第二次。 */
  packages: string[];
};

// ── 组装输入 ─────────────────────────────────────────────
/**
 * 一条历史消息在 provider 眼里的样子：只留模型要看的字段。
 * @since s06
 */
export function toProviderMessage(m: AgentMessage): ProviderMessage {
  return m.role === "toolResult" ? { role: m.role, toolCallId: m.toolCallId, content: m.content } : { role: m.role, content: m.content };
}

/**
 * 把 agent 的现状拼成一次请求：系统提示现拼自 loader 按信任交出的资料；历史取树上从根到当前叶子的那条路径，
 * 只留模型要看的字段；工具清单现取自 registry。
 * @since s02
 */
export function buildProviderInput(agent: Agent): ProviderInput {
  return {
    systemPrompt: buildSystemPrompt(agent.loader.load(agent.trust)),
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

// ── 收集事件 ─────────────────────────────────────────────
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

// ── 工具循环 ─────────────────────────────────────────────
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
  for await (const raw of events) {
    // 只记校验过的调用；坏事件在这里就抛错，collectAssistantMessage 把它收成一条出错的回答
    const event = parseProviderEvent(raw);
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
  return oneTurnAtATime(state, async () => {
    const turnMessages: ProviderMessage[] = [];
    const events: RuntimeEvent[] = [];
    const emit = (event: RuntimeEvent): void => {
      events.push(event);
      runtime.emit(event);
    };
    const store = (message: AgentMessage): void => {
      state.messages.append(message);
      turnMessages.push(toProviderMessage(message));
      emit({ type: "message", content: message.content });
    };
    // ⑦ 收尾：广播 done，把这一轮的事件交给运行模式呈现（s10，R7）
    const finish = (message: AssistantMessage): AssistantMessage => {
      emit({ type: "done" });
      // 呈现坏了不改这一轮的结果：回答已经存好，失败记进 runtime.errors
      try {
        mode.render(events);
      } catch (error) {
        runtime.errors.push(`error: mode failed to render: ${describeError(error)}`);
      }
      return message;
    };
    // ② systemPrompt = buildSystemPrompt(loader.load(trust))：s08 资料，s11 信任过滤（R6）；在 buildProviderInput 里
    // ③ snapshot：s06。拍快照，定下模型。这一轮里别人往 state 加消息、往 registry 加工具，都等下一轮再生效。
    let snapshot: TurnSnapshot;
    let provider: Provider;
    try {
      snapshot = createTurnSnapshot(buildProviderInput(agent));
      // 按模型名挑 provider，只认 providers 自己的键：模型名叫 "constructor" 也摸不到原型链上去
      provider = agent.providers !== undefined && Object.hasOwn(agent.providers, state.model) ? agent.providers[state.model] : agent.provider;
    } catch (error) {
      // 连这一轮的输入都备不齐（比如资料加载失败）：和 provider 出错一样，这一轮以一条出错的回答结束，下一轮照常（R4）
      const failed: AssistantMessage = { role: "assistant", content: `error: could not start the turn: ${describeError(error)}`, stopReason: "error" };
      store(failed);
      return finish(failed);
    }

    // ④ 工具循环：s04，最多 maxTurns 次（R5）
    for (let turn = 0; turn < maxTurns; turn++) {
      const calls: ToolCall[] = [];
      // 每次请求 = 快照 + 这一轮自己存下的消息；交给 provider 的是一份拷贝
      const request = copyProviderInput({ ...snapshot, messages: [...snapshot.messages, ...turnMessages] });
      let assistant: AssistantMessage;
      try {
        // s03 事件流（U1）：边收边拼；流出错变成 stopReason "error" 的消息（R4）
        assistant = await collectAssistantMessage(recordToolCalls(provider.stream(request), calls));
      } catch (error) {
        assistant = { role: "assistant", content: `error: ${describeError(error)}`, stopReason: "error" };
      }
      // ⑤ 助手消息带着 stopReason 存进会话树（s07），并广播 message 事件（s09）
      store(assistant);
      if (assistant.stopReason !== "toolUse" || calls.length === 0) return finish(assistant);

      for (const call of calls) {
        // ⑥ s05 hook 包着 registry.run；工具出错变成 "error: …" 结果，循环继续（R4）；core 里没有执行策略（R6）
        const result = executeToolCall(registry, hooks, call);
        // 工具结果同样存进会话树（s07），并广播 message 事件（s09）
        store(result);
      }
    }
    const capped: AssistantMessage = { role: "assistant", content: "max turns reached", stopReason: "stop" };
    store(capped);
    return finish(capped);
  });
}

// ── 一轮对话 ─────────────────────────────────────────────
/**
 * 跑一轮：存下用户消息，交给工具循环，直到拿到这一轮的最终回答。这就是 EVOLUTION.md §5 的整条链，
 * 每一步的注释标着它来自哪一节、守的是哪条规则。
 * 出错不往外抛：provider 出错变成一条 stopReason 为 "error" 的助手消息，照样存进历史。
 * 上一轮还没跑完又来一轮，这一轮不跑：回一条 "error: …"，历史不动。
 * @since s01
 */
export async function runOneTurn(agent: Agent, userInput: string): Promise<AssistantMessage> {
  // 调用方用错了就不跑，这句话也不存：上一轮还在跑（循环也会拒绝，但那时这句话已经进了历史），或者输入不是文字
  if (turnsInProgress.has(agent.state)) return refusedTurn("agent is already processing a prompt");
  if (typeof userInput !== "string") return refusedTurn(`user input must be a string, got ${typeof userInput}`);
  // ① 用户消息挂到会话树的当前叶子下（s07，U1）
  agent.state.messages.append({ role: "user", content: userInput });
  // ②–⑦ 在工具循环里依次发生
  return runEventedToolLoop(agent);
}

// ── 扩展 ─────────────────────────────────────────────────
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
  /** 扩展（和运行模式）出过的错，每条都以 "error: " 开头，按发生顺序。 */
  readonly errors: string[] = [];

  constructor(private readonly registry: ToolRegistry) {}

  /** 装一个扩展。它登记的东西先记在一边，扩展函数顺利跑完才一起生效；不是函数、async 的、装的时候撞了名的，一样都不装。 */
  use(ext: Extension): void {
    let name = "anonymous";
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
      const extension = expectExtension(ext);
      // 具名函数、赋给变量的箭头函数，JS 都会给它一个 name；错误信息靠它点名是哪个扩展
      name = String(extension.name || name);
      const returned: unknown = extension({
        on: (type, handler) => {
          whileLoading(`listen to "${type}"`);
          handlers.push({ type, handler });
        },
        registerTool: (tool) => {
          // 先验形状：别人写的工具可能连 spec 都没有，报错得点名缺了什么
          const checked = parseTool(tool);
          whileLoading(`register tool "${checked.spec.name}"`);
          if (taken.has(checked.spec.name)) throw new Error(`tool "${checked.spec.name}" is already registered`);
          taken.add(checked.spec.name);
          tools.push(checked);
        },
        registerCommand: (cmd) => {
          whileLoading(`register command "${cmd.name}"`);
          if (this.commands.has(cmd.name) || commands.some((c) => c.name === cmd.name)) {
            throw new Error(`command "${cmd.name}" is already registered`);
          }
          commands.push(cmd);
        },
      });
      expectNotPromise(returned);
      // 真正装之前再对一次名字：扩展在装的时候可能又 use 了别的扩展，把名字先占了
      const now = new Set(this.registry.getSpecs().map((spec) => spec.name));
      for (const tool of tools) if (now.has(tool.spec.name)) throw new Error(`tool "${tool.spec.name}" is already registered`);
      for (const cmd of commands) if (this.commands.has(cmd.name)) throw new Error(`command "${cmd.name}" is already registered`);
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
      const failed = (error: unknown): void => void this.errors.push(`error: handler for "${type}" failed: ${describeError(error)}`);
      try {
        // 每个处理函数拿自己的一份事件：它改了，别的处理函数看到的、这一轮记下的都还是原样。
        // 处理函数可以是 async 的：不等它，但它后来失败了也照样记下
        catchRejection(handler({ ...event }), failed);
      } catch (error) {
        failed(error);
      }
    }
  }

  /** 有没有叫这个名字的命令。装包前查重用。 */
  hasCommand(name: string): boolean {
    return this.commands.has(name);
  }

  /** 按名字跑命令。没有这个命令、命令自己抛错、回的不是文字，都回一句 "error: …"。 */
  runCommand(name: string): string {
    const cmd = this.commands.get(name);
    if (cmd === undefined) return `error: unknown command "${name}"`;
    let output: unknown;
    try {
      output = cmd.run();
    } catch (error) {
      return `error: command "${name}" failed: ${describeError(error)}`;
    }
    // 和工具一样，命令该回文字
    return expectText(output, `command "${name}"`);
  }
}

// ── 运行模式 ─────────────────────────────────────────────
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
        writeLine(this.output, last);
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
      writeLine(this.output, JSON.stringify(event).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029"));
    }
  }
}

// ── 包 ───────────────────────────────────────────────────
/**
 * 包的清单：叫什么，带了哪些工具、命令、资料。清单里列的每个名字都必须在 contents 里有对应条目。
 * @since s12
 */
export type PackageManifest = { name: string; tools: string[]; commands: string[]; resources: string[] };

/**
 * 一个包：清单，加上按名字存的内容。包只带数据，不带可执行代码。
 * @since s12
 */
export type Package = { manifest: PackageManifest; contents: Record<string, string> };

/**
 * 校验过、按种类分好的包内容，可以拿去安装。
 * @since s12
 */
export type LoadedPackage = {
  name: string;
  tools: Record<string, string>;
  commands: Record<string, string>;
  resources: Record<string, string>;
};

/**
 * 从 contents 里按名字取出条目。清单里列了、contents 里却没有，说明包坏了：报错并点名。
 * @since s12
 */
export function pick(contents: Record<string, string>, names: string[], field: string): Record<string, string> {
  for (const name of names) {
    if (!Object.hasOwn(contents, name)) throw new Error(`${field} lists "${name}", but contents has no entry "${name}"`);
  }
  // 用 fromEntries 建结果：名字是包给的，哪怕叫 "__proto__" 也是个普通的键，不会改到原型上去
  return Object.fromEntries(names.map((name) => [name, contents[name]]));
}

/**
 * 资料名决定种类：AGENTS.md 是项目说明，skills/ 下是技能（这两条照 Pi 的习惯），prompts/ 下是追加到系统提示末尾的一段话。
 * Pi 的 prompts/ 放的是提示模板，用 /名字 展开成用户消息、不进系统提示；课程借这个目录放追加提示，是简化。
 * @since s12
 */
export function resourceKind(name: string): ContextResource["kind"] | undefined {
  if (name === "AGENTS.md") return "agents";
  if (name.startsWith("skills/")) return "skill";
  if (name.startsWith("prompts/")) return "prompt";
  return undefined;
}

/**
 * 校验一个包，按种类取出内容。任何一处不对都报错并点名，不会交出半个包。
 * @since s12
 */
export function loadPackage(pkg: Package): LoadedPackage {
  const { manifest, contents } = parsePackage(pkg);
  const where = `package "${manifest.name}"`;
  try {
    for (const name of manifest.resources) {
      if (resourceKind(name) === undefined) throw new Error(`manifest.resources: "${name}" is not AGENTS.md, skills/… or prompts/…`);
    }
    return {
      name: manifest.name,
      tools: pick(contents, manifest.tools, "manifest.tools"),
      commands: pick(contents, manifest.commands, "manifest.commands"),
      resources: pick(contents, manifest.resources, "manifest.resources"),
    };
  } catch (error) {
    throw new Error(`${where}: ${describeError(error)}`);
  }
}

/**
 * 包里的工具是一段带 {参数} 占位的文字模板：占位就是参数，调用时把参数填进去。
 * @since s12
 */
export function templateTool(name: string, template: string, from: string): Tool {
  const params = [...new Set([...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))];
  return {
    spec: { name, description: `${from} 包提供的模板工具`, input: Object.fromEntries(params.map((p) => [p, `填入 {${p}} 的文字`])) },
    handler: (input) => template.replace(/\{(\w+)\}/g, (_, p: string) => (Object.hasOwn(input, p) ? input[p] : "")),
  };
}

/**
 * 装了包以后的 loader：叠在原来那个 loader 上面，多出包带来的资料。agent.loader 是 ResourceLoader，拼请求只调它的 load(trust)，
 * 所以这一层写成它的子类，Agent 的类型和拼请求的代码都不用动：load(trust) 先问下面那层，再问自己这层，两层用的是同一个信任，过滤还是 ResourceLoader 的 load 在做。
 * 和下面那层交出的资料同种又同名的，先来的算数：项目自己的技能盖过包里的同名技能，先装的包盖过后装的。
 * @since s12
 */
export class PackageResourceLoader extends ResourceLoader {
  constructor(
    private readonly below: ResourceLoader,
    resources: ContextResource[],
  ) {
    super(resources);
  }

  /** 下面那层的资料在前，自己这层的在后；撞名只在这一刻、这个信任下交出来的资料之间比。 */
  load(trust: ProjectTrust): ContextResource[] {
    const loaded = this.below.load(trust);
    const taken = new Set(loaded.map((r) => `${r.kind}:${r.name}`));
    return [...loaded, ...super.load(trust).filter((r) => !taken.has(`${r.kind}:${r.name}`))];
  }
}

/**
 * 把装好的包接回主线：工具和命令经由一个扩展进 registry 和命令表（和 Pi 一样，工具、命令都来自扩展），
 * 资料装进一层叠在原 loader 上面的 PackageResourceLoader。包名、工具名、命令名和已有的撞了，就整包拒绝：报错，什么都不装。
 * 资料不在这里查重：装的时候不读任何资料，撞名由 PackageResourceLoader 在每轮加载时按先来后到处理。
 * @since s12
 */
export function installPackage(agent: Agent, loaded: LoadedPackage): void {
  const where = `package "${loaded.name}"`;
  const refuse = (what: string): never => {
    throw new Error(`${where}: ${what}; nothing was installed`);
  };
  // 先把所有冲突查完，再动手：要么整包装上，要么什么都不变。
  if (agent.packages.includes(loaded.name)) refuse("a package with this name is already installed");
  const taken = new Set(agent.registry.getSpecs().map((spec) => spec.name));
  for (const name of Object.keys(loaded.tools)) if (taken.has(name)) refuse(`tool "${name}" is already registered`);
  for (const name of Object.keys(loaded.commands)) if (agent.runtime.hasCommand(name)) refuse(`command "${name}" is already registered`);
  // 技能和追加提示去掉目录，用它自己的名字（skills/commit 就是 commit）；包里的 AGENTS.md 带上包名，和项目自己的分开。
  const resources: ContextResource[] = Object.entries(loaded.resources).map(([name, content]) => {
    const kind = resourceKind(name) ?? refuse(`resource "${name}" is not AGENTS.md, skills/… or prompts/…`);
    return { kind, name: kind === "agents" ? `${loaded.name}/${name}` : name.replace(/^(skills|prompts)\//, ""), content };
  });

  const errorsBefore = agent.runtime.errors.length;
  agent.runtime.use(function packageInstaller(api) {
    for (const [name, template] of Object.entries(loaded.tools)) api.registerTool(templateTool(name, template, loaded.name));
    for (const [name, text] of Object.entries(loaded.commands)) api.registerCommand({ name, run: () => text });
  });
  // 预检已经排除了 use 会拒绝的情况；万一两边的检查走偏，use 什么都不会留下，这里也就此停手。
  if (agent.runtime.errors.length > errorsBefore) refuse(agent.runtime.errors.at(-1) ?? "the installer extension failed");
  // 包的资料叠在原来的 loader 上面：信任照旧在每轮开头 load(agent.trust) 时生效，一层一层地问
  agent.loader = new PackageResourceLoader(agent.loader, resources);
  agent.packages.push(loaded.name);
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
  z.object({ type: z.literal("message_end"), stopReason: z.enum(["stop", "toolUse", "error"]) }),
  // 参数的形状要按具体工具的 spec 才判得了，由 registry.run 校验；这里只要求调用带着字符串的 id 和 name
  z.object({ type: z.literal("tool_call"), call: z.object({ id: z.string(), name: z.string(), input: z.custom<Record<string, string>>() }) }),
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

/**
 * 该同步回答的地方收到了 Promise（比如照着 Pi 写成 async 的工具）：我们不等它，但得接住它的失败，
 * 没人处理的 reject 会让 Node 进程直接退出。onError 拿到那个失败，不关心就不传；不是 Promise 就什么都不做。
 * @since s04
 */
export function catchRejection(value: unknown, onError: (error: unknown) => void = () => {}): void {
  // 用 new Promise 包一层：value 再怪（then 一调就抛错），这里也不会同步抛错
  if (isPromiseLike(value)) void new Promise((resolve) => resolve(value)).then(undefined, onError);
}

/**
 * 该回文字的地方（比如工具的 handler）回了别的：照着 Pi 写成 async 的会回 Promise，手滑的会回数字、对象。
 * 是文字就原样交回；不是就接住可能的 Promise 失败，交回一句说清回了什么的 "error: …"，免得把它当结果存进历史。
 * @since s04
 */
export function expectText(value: unknown, who: string): string {
  if (typeof value === "string") return value;
  catchRejection(value);
  return `error: ${who} returned ${describeValue(value)}, expected a string`;
}

/**
 * 一个工具的参数 schema：spec.input 里的每个参数都得有、都得是字符串，不许多出别的。
 * @since s04
 */
export function argumentsSchema(spec: ToolSpec): z.ZodType<Record<string, string>> {
  return z.strictObject(Object.fromEntries(Object.keys(spec.input).map((key) => [key, z.string()])));
}

/**
 * 照参数 schema 校验模型给的参数，过了就交回校验过的那一份；不过就抛错，一次说清每一处：
 * 缺了、不是字符串（按 spec.input 的顺序，用 "; " 隔开），多出来的（用 ", " 隔开），或者参数根本不是对象。
 * @since s04
 */
export function parseArguments(schema: z.ZodType<Record<string, string>>, call: ToolCall): Record<string, string> {
  const parsed = schema.safeParse(call.input);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    if (issue.code === "unrecognized_keys") return issue.keys.map((key) => `unexpected argument "${key}"`).join(", ");
    if (issue.path.length === 0) return "arguments must be an object";
    // 只认参数自己的键：缺的参数恰好叫 "constructor"，也照样报「缺了」，不会说成「不是字符串」
    const given = Object.hasOwn(call.input, String(issue.path[0]));
    return `argument "${issue.path.join(".")}" ${given ? "must be a string" : "is missing"}`;
  });
  throw new Error(`invalid arguments for tool "${call.name}": ${problems.join("; ")}`);
}

/**
 * 正在跑一轮的 agent，按它的 state 认。
 * @since s04
 */
export const turnsInProgress = new WeakSet<AgentState>();

/**
 * 调用方用错了时的回答（比如上一轮还没跑完又来一轮）：stopReason 为 "error"，不存进历史，什么都不改。
 * @since s04
 */
export function refusedTurn(reason: string): AssistantMessage {
  return { role: "assistant", content: `error: ${reason}`, stopReason: "error" };
}

/**
 * 同一个 agent 一次只跑一轮。一轮要问好几次模型，中间等着的时候调用方又来一轮，两轮的消息就会交错着存进同一份历史；
 * 所以已经在跑，就回一条 refusedTurn、什么都不动（Pi 同样拒绝第二个 prompt）；否则记下在跑，run 跑完（出错也一样）再放开。
 * @since s04
 */
export async function oneTurnAtATime(state: AgentState, run: () => Promise<AssistantMessage>): Promise<AssistantMessage> {
  if (turnsInProgress.has(state)) return refusedTurn("agent is already processing a prompt");
  turnsInProgress.add(state);
  try {
    return await run();
  } finally {
    turnsInProgress.delete(state);
  }
}

/**
 * beforeToolCall 的答复该有的形状，用 zod 写出来。
 * @since s05
 */
export const BeforeToolCallResultSchema: z.ZodType<BeforeToolCallResult> = z.discriminatedUnion("type", [
  z.object({ type: z.literal("allow") }),
  z.object({ type: z.literal("block"), reason: z.string() }),
]);

/**
 * 校验 beforeToolCall 的答复，像样的 allow / block 才交回；别的一律抛错（Promise 的失败顺手接住）。
 * 权限闸宁可错拦，不能错放：照着 Pi 写的钩子是 async 的，回的 Promise 里装着 block，被当成放行就删了文件。
 * @since s05
 */
export function parseBeforeToolCallResult(raw: unknown): BeforeToolCallResult {
  const parsed = BeforeToolCallResultSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  catchRejection(raw);
  throw new Error(`beforeToolCall returned ${describeValue(raw)}, expected {type: "allow"} or {type: "block", reason}`);
}

/**
 * 交给 provider 的那一份：照形状复制一层（每条消息、每个工具说明各一层）。provider 是外来代码，它改了手上的输入，
 * 也碰不到快照和这一轮后面的请求。不用 structuredClone：一轮要问几十次，每次都整份深拷贝太慢。
 * @since s06
 */
export function copyProviderInput(input: ProviderInput): ProviderInput {
  return { ...input, messages: input.messages.map((m) => ({ ...m })), tools: input.tools.map((t) => ({ ...t, input: { ...t.input } })) };
}

/**
 * 一个工具该有的形状，用 zod 写出来。扩展登记的工具是别人写的代码：登记时照它校验一遍，形状不对的工具进不了 registry。
 * @since s09
 */
export const ToolSchema: z.ZodType<Tool> = z.object({
  spec: z.object({ name: z.string(), description: z.string(), input: z.record(z.string(), z.string()) }),
  handler: z.custom<ToolHandler>((value) => typeof value === "function", "handler must be a function"),
});

/**
 * 校验一个工具，交回一份干净的拷贝（spec 里多出来的字段不要）。形状不对就报错，点名哪里不对。
 * @since s09
 */
export function parseTool(tool: Tool): Tool {
  const parsed = ToolSchema.safeParse(tool);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "tool"}: ${issue.message}`);
    throw new Error(`invalid tool: ${problems.join("; ")}`);
  }
  return parsed.data;
}

/**
 * 交到 use 手上的扩展不一定是函数（比如还没 await 的 import()）：是就原样交回，不是就抛错说清收到的是什么（Promise 的失败顺手接住）。
 * @since s09
 */
export function expectExtension(ext: unknown): Extension {
  if (typeof ext === "function") return ext as Extension;
  catchRejection(ext);
  throw new Error(`an extension must be a function, got ${describeValue(ext)}`);
}

/**
 * 扩展函数回了 Promise，就是 async 扩展：use 不等它，await 之后的登记都会落空。与其装上半个，不如整个不装，
 * 抛错说清楚为什么（那个 Promise 的失败顺手接住）。
 * @since s09
 */
export function expectNotPromise(returned: unknown): void {
  if (!isPromiseLike(returned)) return;
  catchRejection(returned);
  throw new Error("it returned a Promise; an extension must register everything before it returns");
}

/**
 * 把一行交给 Output。输出只是呈现：它抛错（读 JSON 的程序先关了管道、日志盘满了），这一轮存下的东西不受影响，也不外抛。
 * 出口本身坏了，就没有别处可以说了，这一行只能丢掉。
 * @since s10
 */
export function writeLine(output: Output, line: string): void {
  try {
    output.log(line);
  } catch {
    // 见上：丢掉这一行
  }
}

/**
 * 包是从外面来的数据，不可信：先用 zod 校验形状。
 * @since s12
 */
export const PackageSchema = z.object({
  manifest: z.object({
    name: z.string().min(1),
    tools: z.array(z.string()),
    commands: z.array(z.string()),
    resources: z.array(z.string()),
  }),
  contents: z.record(z.string(), z.string()),
});

/**
 * 校验一个包的形状，交回校验过的那一份；不对就报错，点名每一处不对的地方。
 * @since s12
 */
export function parsePackage(pkg: Package): Package {
  const parsed = PackageSchema.safeParse(pkg);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "package"}: ${issue.message}`);
    throw new Error(`invalid package: ${problems.join("; ")}`);
  }
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
    paths: string[]; // 问题里提到的文件路径
    result: string; // 刚拿到的工具结果；上一条消息不是工具结果时为空串
    input: ProviderInput; // 这次请求的全部输入
  };
  // 一句回答：一段话，加上要调的工具（调用的 id 在后面统一编号）
  type Answer = { text: string; calls: Omit<ToolCall, "id">[] };
  const say = (text: string, ...calls: Omit<ToolCall, "id">[]): Answer => ({ text, calls });
  // 剧本的一行：什么时候用它，用它时怎么回答。answer 回 undefined 是说「这一行不管」，接着往下找
  type Line = {
    asks?: string; // 问题里有这个词
    after?: RegExp; // 上一条消息是工具结果，而且对得上它（/^/ 就是什么结果都行）
    offers?: string; // 这次给它的工具里有这一个
    answer: (seen: Seen) => Answer | undefined;
  };
  const script: Line[] = [
    { asks: "提交信息", after: /^/, answer: ({ result }) => say(`可以这样写：${result}`) },
    { asks: "提交信息", offers: "commit_message", answer: () => say("用 commit_message 拼一条。", { name: "commit_message", input: { type: "feat", summary: "add store" } }) },
    { asks: "数一下", after: /^/, answer: ({ result }) => say(`数好了：${result}`) },
    { asks: "数一下", answer: ({ paths: [path = ""] }) => say(`用 wc 数一下 ${path}。`, { name: "wc", input: { path } }) },
    {
      asks: "规矩",
      answer: ({ input }) => {
        const rules = /# 项目说明\n\n## .+\n(.+)/.exec(input.systemPrompt)?.[1];
        return say(rules === undefined ? "系统提示里没有项目说明，我不知道这个项目的规矩。" : `项目说明里写着：${rules}`);
      },
    },
    { asks: "提交记录", after: /^/, offers: "git_log", answer: ({ result }) => say(`最近的提交：${result}`) },
    { asks: "提交记录", after: /^/, answer: ({ result, offered }) => say(`git 工具打开了（${result}），但这一轮我拿到的工具清单里还没有 git_log：${offered.join(", ")}。`) },
    { asks: "提交记录", offers: "git_log", answer: () => say("调用 git_log。", { name: "git_log", input: {} }) },
    { asks: "提交记录", answer: ({ question }) => (question.includes("打开") ? say("调用 enable_git。", { name: "enable_git", input: {} }) : say("我手上没有 git 工具。")) },
    {
      asks: "删掉",
      after: /^/,
      answer: ({ input }) => {
        // 逐个交代上一次回答之后拿到的每个结果
        const results = input.messages.slice(input.messages.findLastIndex((m) => m.role === "assistant") + 1);
        return say(results.map((r) => (r.content.startsWith("error:") ? `有一步没做成（${r.content}）` : `读到了：${r.content}`)).join("；"));
      },
    },
    {
      asks: "删掉",
      answer: ({ paths: [target = "", other = ""] }) =>
        say(`先删 ${target}，再读 ${other}。`, { name: "rm", input: { path: target } }, { name: "read", input: { path: other } }),
    },
    { asks: "一直", after: /^/, answer: () => say("再看一眼。", { name: "ls", input: { dir: "." } }) },
    {
      after: /^error: no such file: (.+)$/,
      answer: ({ result }) => {
        const file = result.replace(/^error: no such file: /, "");
        const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : ".";
        return say(`没有这个文件，我列一下 ${dir} 看看。`, { name: "ls", input: { dir } });
      },
    },
    { after: /^error:/, answer: ({ result }) => say(`工具报错了（${result}），这一步我没法做。`) },
    {
      after: /^[\w./-]+(\n[\w./-]+)*$/,
      answer: ({ result }) => {
        const [first] = result.split("\n");
        return say(`读一下 ${first}。`, { name: "read", input: { path: first } });
      },
    },
    { after: /^/, answer: ({ result }) => say(`文件内容是：${result}`) },
    { asks: "工具", answer: ({ offered }) => say(offered.length > 0 ? `这次我能用的工具：${offered.join(", ")}。` : "这次没有给我任何工具。") },
    { asks: "grep", answer: () => say("我用 grep 搜一下。", { name: "grep", input: { pattern: "FILE" } }) },
    { asks: "一直", answer: () => say("先列一下目录。", { name: "ls", input: { dir: "." } }) },
    { answer: ({ paths: [path] }) => (path === undefined ? undefined : say(`我先读一下 ${path}。`, { name: "read", input: { path } })) },
  ];
  return {
    async *stream(input: ProviderInput): AsyncGenerator<ProviderEvent> {
      const question = input.messages.findLast((m) => m.role === "user")?.content ?? "";
      if (question.includes("崩")) throw new Error("provider unavailable (503)");
      const last = input.messages.at(-1);
      const seen: Seen = {
        question,
        offered: input.tools.map((t) => t.name),
        paths: question.match(/[\w-]+(\/[\w-]+)*\.\w+/g) ?? [],
        result: last?.role === "toolResult" ? last.content : "",
        input,
      };
      // 从上往下找第一行对得上、也给了回答的；一行都没有，就复述问题
      let reply: Answer | undefined;
      for (const line of script) {
        if (line.asks !== undefined && !question.includes(line.asks)) continue;
        if (line.after !== undefined && !(last?.role === "toolResult" && line.after.test(last.content))) continue;
        if (line.offers !== undefined && !seen.offered.includes(line.offers)) continue;
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
      // 调用的 id 接着这次请求里已有的工具结果往后编
      const done = input.messages.filter((m) => m.role === "toolResult").length;
      for (const [i, call] of reply.calls.entries()) yield { type: "tool_call", call: { id: `call_${done + i + 1}`, ...call } };
      yield { type: "message_end", stopReason: reply.calls.length > 0 ? "toolUse" : "stop" };
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
    {
      spec: { name: "rm", description: "删除一个文件", input: { path: "文件路径" } },
      handler: ({ path }) => {
        if (!Object.hasOwn(DEMO_FILES, path)) throw new Error(`no such file: ${path}`);
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
      if (!Object.hasOwn(DEMO_FILES, path)) throw new Error(`no such file: ${path}`);
      return `${path} 共 ${[...DEMO_FILES[path]].length} 个字符`;
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

/**
 * 演示用的包：一个模板工具、一个命令、一份技能。
 * @since s12
 */
export function createDemoPackage(): Package {
  return {
    manifest: { name: "git-helpers", tools: ["commit_message"], commands: ["version"], resources: ["skills/commit"] },
    contents: {
      commit_message: "{type}: {summary}",
      version: "git-helpers 1.0.0",
      "skills/commit": "写提交信息：类型 + 冒号 + 一句话。\n类型用 feat、fix、docs 之一。",
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
 * 完整的 mini Pi：装一个扩展、一个包（再试两个装不上的包），跑三轮，第三轮前回到第一轮的回答另起一支，最后看树和命令。
 * @since s01
 */
export async function main(): Promise<void> {
  const registry = new ToolRegistry();
  for (const tool of createDemoTools()) registry.register(tool);
  const runtime = new ExtensionRuntime(registry);
  runtime.use(statsExtension);
  const agent: Agent = {
    state: { messages: new SessionTree(), model: "fake-model" },
    provider: createFakeProvider(),
    output: consoleOutput,
    registry,
    hooks: createPermissionGate(),
    loader: new ResourceLoader(createDemoResources()),
    runtime,
    mode: new PrintMode(consoleOutput),
    trust: "trusted",
    packages: [],
  };

  installPackage(agent, loadPackage(createDemoPackage()));
  const broken = createDemoPackage();
  broken.manifest = { ...broken.manifest, name: "broken", commands: ["changelog"] };
  const clashing = createDemoPackage();
  clashing.manifest = { ...clashing.manifest, name: "clashing", tools: ["wc"] };
  clashing.contents.wc = "{path}";
  for (const [label, pkg] of [["坏包", broken], ["撞名的包", clashing]] as const) {
    try {
      installPackage(agent, loadPackage(pkg));
    } catch (error) {
      console.log(`装${label}：${describeError(error)}`);
    }
  }
  console.log(`工具：${registry.getSpecs().map((s) => s.name).join(", ")}`);

  const tree = agent.state.messages;
  for (const question of ["这个项目有什么规矩？", "帮我写一条提交信息"]) {
    console.log(`user: ${question}`);
    await runOneTurn(agent, question);
  }
  tree.moveTo("e2");
  console.log("（moveTo e2：回到第一轮的回答，另起一支）");
  console.log("user: 数一下 README.md 有多少字");
  await runOneTurn(agent, "数一下 README.md 有多少字");

  console.log("— 会话树");
  for (const line of renderTree(tree.allEntries())) console.log(`  ${line}`);
  for (const name of ["version", "stats"]) console.log(`/${name} → ${runtime.runCommand(name)}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await main();
}
