// s05_hooks —— mini Pi 第 5 版：工具执行前后各留一个钩子，能拦下调用、能改写结果，registry 本身不动。
// 运行：npx tsx s05_hooks/code.ts
// 一轮（runOneTurn）：存下用户消息 → runEventedToolLoop，最多问 maxTurns 次：
//   问模型，边收事件边拼回答，recordToolCalls 顺手记下 tool_call
//   回答以 toolUse 收尾：每个调用交给 executeToolCall —— beforeToolCall 放行才 registry.run，
//     结果再过 afterToolCall —— 结果带着 toolCallId 存进历史，再问一次
//   否则这就是这一轮的回答；问满了就停下，说 "max turns reached"

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
 * agent 跨轮保存的东西。现在只有对话历史。
 * @since s01
 */
export type AgentState = { messages: AgentMessage[] };

// ── 模型：发给它的输入，它的接入口 ───────────────────────
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
   * 同名工具登记两次是写错了，直接报错，不悄悄覆盖。
   * 存下的是一份拷贝：登记以后谁再改原来那个对象，都影响不到这里。
   */
  register(tool: Tool): void {
    if (this.tools.has(tool.spec.name)) {
      throw new Error(`tool "${tool.spec.name}" is already registered`);
    }
    const copy: Tool = { spec: { ...tool.spec, input: { ...tool.spec.input } }, handler: tool.handler };
    this.tools.set(copy.spec.name, { tool: copy, args: argumentsSchema(copy.spec) });
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
export type Agent = { state: AgentState; provider: Provider; output: Output; registry: ToolRegistry; hooks: ToolHooks };

// ── 组装输入 ─────────────────────────────────────────────
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
 * @since s04
 */
export async function runEventedToolLoop(agent: Agent, maxTurns: number = DEFAULT_MAX_TURNS): Promise<AssistantMessage> {
  const { state, provider, registry, hooks, output } = agent;
  return oneTurnAtATime(state, async () => {
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
        const result = executeToolCall(registry, hooks, call);
        state.messages.push(result);
        // 参数是模型给的任意值（可能嵌得很深），写成一行交给 describeValue
        output.log(`  → ${call.name}(${describeValue(call.input)})`);
        output.log(`  ← ${describeValue(result.content)}`);
      }
    }
    const capped: AssistantMessage = { role: "assistant", content: "max turns reached", stopReason: "stop" };
    state.messages.push(capped);
    output.log(`assistant: ${capped.content}`);
    return capped;
  });
}

// ── 一轮对话 ─────────────────────────────────────────────
/**
 * 跑一轮：存下用户消息，交给工具循环，直到拿到这一轮的最终回答。
 * 出错不往外抛：provider 出错变成一条 stopReason 为 "error" 的助手消息，照样存进历史。
 * 上一轮还没跑完又来一轮，这一轮不跑：回一条 "error: …"，历史不动。
 * @since s01
 */
export async function runOneTurn(agent: Agent, userInput: string): Promise<AssistantMessage> {
  // 调用方用错了就不跑，这句话也不存：上一轮还在跑（循环也会拒绝，但那时这句话已经进了历史），或者输入不是文字
  if (turnsInProgress.has(agent.state)) return refusedTurn("agent is already processing a prompt");
  if (typeof userInput !== "string") return refusedTurn(`user input must be a string, got ${typeof userInput}`);
  agent.state.messages.push({ role: "user", content: userInput });
  return runEventedToolLoop(agent);
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
    answer: (seen: Seen) => Answer | undefined;
  };
  const script: Line[] = [
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

// ── IO 边缘 ──────────────────────────────────────────────
/**
 * core 写出的行从这里打到 stdout。IO 边缘只有它和 main 两处碰终端：main 自己也打演示用的提示行。
 * @since s01
 */
export const consoleOutput: Output = { log: (line) => console.log(line) };

/**
 * 演示：模型在一次回答里要两个调用，一个删文件、一个读配置。权限闸拦下删除，放行读取并给密钥打码。
 * @since s01
 */
export async function main(): Promise<void> {
  const registry = new ToolRegistry();
  for (const tool of createDemoTools()) registry.register(tool);
  const agent: Agent = {
    state: { messages: [] },
    provider: createFakeProvider(),
    output: consoleOutput,
    registry,
    hooks: createPermissionGate(),
  };

  const question = "删掉 src/store.ts，再读一下 src/config.ts";
  console.log(`user: ${question}`);
  await runOneTurn(agent, question);
  console.log(`（src/store.ts 还在吗？${"src/store.ts" in DEMO_FILES ? "在" : "不在"}）`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await main();
}
