// 录一课的回放：把这一课的演示场景（tests/scenarios.ts 里的 sNN-demo*，和 main() 做的事一样）原样跑一遍，
// 一边跑一边记下每一步——用户消息、provider 收到的输入和吐出的事件、钩子的决定、工具的执行、存进历史的消息、
// 运行时事件、会话树的移动、Output 写出的行。
//
// 怎么记：场景由 tests/support/trace.ts 的 runScenario 来跑（黄金轨迹用的是同一个），只是交给它的「课的模块」
// 换成了一层包装：createFakeProvider 返回的 provider、ToolRegistry / SessionTree / ExtensionRuntime 的子类、
// runOneTurn 等入口都会先记一笔再转给课里原来的实现。课的代码一行不改。
// 包装必须是透明的：recordReplay 会把同一个场景不包装再跑一遍，两份轨迹不一样就报错。
import { isDeepStrictEqual } from "node:util";
import { demoScenarios } from "../../tooling/scenarios/data.ts";
import { type Call, type Event, type ExtensionApiLike, type Hooks, type Input, type LessonModule, type Msg, type ProviderLike, type Registry, type RuntimeEventLike, type TestAgent, type ToolLike, type Tree, importLesson } from "../../tooling/lesson.ts";
import { lessonNumber } from "../../tooling/course.ts";
import { runScenario } from "../../tooling/scenarios/run.ts";
import type { Scenario } from "../../tooling/scenarios/shape.ts";
import type { Replay, ReplayEntry, ReplayStep, StepKind } from "./replay-types.ts";

const clip = (text: string, max = 120): string => {
  const one = text.replace(/\n/g, "⏎");
  return [...one].length > max ? `${[...one].slice(0, max - 1).join("")}…` : one;
};
const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));
const quote = (text: string): string => JSON.stringify(text);
const tag = (n: number): string => `s${String(n).padStart(2, "0")}`;

type StepInput = Omit<ReplayStep, "run">;

class Recorder {
  readonly steps: ReplayStep[] = [];
  run = -1;
  /** 这段演示里 provider 被请求的次数。 */
  private requests = 0;
  /** 这一轮（一次 runOneTurn / runEventedToolLoop）里的请求次数。 */
  private turnRequests = 0;
  /** 正在收文字的那一步（连续的 text_delta 并成一步）。 */
  private openStream: ReplayStep | undefined;
  /** use() / 装包期间登记的工具，并进那一步，不单列。 */
  private groups: string[][] = [];
  private attached = new WeakSet<object>();
  /** makeAgent 先登记场景的工具（场景的布景），这之后的登记才算演示里的一步。 */
  private setupRegistrations = 0;

  constructor(
    readonly lesson: string,
    readonly n: number,
  ) {}

  startRun(setupRegistrations: number): void {
    this.run++;
    this.requests = 0;
    this.setupRegistrations = setupRegistrations;
    this.groups = [];
  }

  add(step: StepInput): ReplayStep {
    const full: ReplayStep = { ...step, run: this.run };
    this.steps.push(full);
    this.openStream = undefined;
    return full;
  }

  output(line: string): void {
    const last = this.steps.at(-1);
    if (last === undefined) return;
    (last.output ??= []).push(line);
  }

  // ── agent：第一次经过入口时给它的 Output、钩子、历史数组装上记录 ──
  attach(agent: TestAgent): void {
    if (this.attached.has(agent)) return;
    this.attached.add(agent);
    const output = agent.output;
    const log = output.log.bind(output);
    output.log = (line: string): void => {
      this.output(line);
      log(line);
    };
    if (agent.hooks !== undefined) this.wrapHooks(agent.hooks);
    const messages = agent.state.messages;
    if (Array.isArray(messages)) {
      const push = messages.push.bind(messages);
      // 不可枚举：快照、structuredClone、JSON 都看不见它。
      Object.defineProperty(messages, "push", {
        configurable: true,
        enumerable: false,
        writable: true,
        value: (...items: Msg[]): number => {
          for (const item of items) this.stored(item, undefined);
          return push(...items);
        },
      });
    }
  }

  private wrapHooks(hooks: Hooks): void {
    const before = hooks.beforeToolCall;
    const after = hooks.afterToolCall;
    if (before !== undefined) {
      hooks.beforeToolCall = (call: Call) => {
        let decision: ReturnType<typeof before>;
        try {
          decision = before(call);
        } catch (error) {
          this.add({
            kind: "hook",
            lesson: "s05",
            title: `beforeToolCall 抛错（${call.name}）`,
            detail: `${call.name}(${JSON.stringify(call.input)})\n抛出：${describe(error)}`,
            note: "钩子自己出了错：executeToolCall 捕获它，结果写成 error: hook failed: …，循环照常往下走（R4 ②）。",
          });
          throw error;
        }
        if (decision.type === "block") {
          this.add({
            kind: "hook",
            lesson: "s05",
            title: `beforeToolCall 拦下 ${call.name}`,
            detail: `${call.name}(${JSON.stringify(call.input)})\n→ block：${decision.reason}`,
            note: `handler 根本不会执行；模型收到的结果是 error: blocked: ${decision.reason}。拦什么由钩子决定，registry 不用改（R2）。`,
          });
        } else {
          this.add({
            kind: "hook",
            lesson: "s05",
            title: `beforeToolCall 放行 ${call.name}`,
            detail: `${call.name}(${JSON.stringify(call.input)})\n→ allow`,
            note: "执行前先问钩子能不能做；放行了，才交给 registry 去执行。",
          });
        }
        return decision;
      };
    }
    if (after !== undefined) {
      hooks.afterToolCall = (call: Call, result: string) => {
        let changed: string;
        try {
          changed = after(call, result);
        } catch (error) {
          this.add({
            kind: "hook",
            lesson: "s05",
            title: `afterToolCall 抛错（${call.name}）`,
            detail: `抛出：${describe(error)}`,
            note: "钩子出错同样不往外抛：结果写成 error: hook failed: …（R4 ②）。",
          });
          throw error;
        }
        if (changed !== result) {
          this.add({
            kind: "hook",
            lesson: "s05",
            title: `afterToolCall 改写了 ${call.name} 的结果`,
            detail: `${quote(result)}\n→ ${quote(changed)}`,
            note: "执行之后再过一道手：模型只看得到改过的这份，原始结果不进历史。",
          });
        }
        return changed;
      };
    }
  }

  // ── provider ──
  request(input: Input, how: "complete" | "stream"): void {
    this.requests++;
    this.turnRequests++;
    const lines = [`messages（${input.messages.length} 条）：`];
    for (const m of input.messages) lines.push(`  ${m.role}${m.toolCallId !== undefined ? `(${m.toolCallId})` : ""}: ${clip(m.content, 90)}`);
    if (input.tools !== undefined) lines.push(`tools：${input.tools.length === 0 ? "（空）" : input.tools.map((t) => t.name).join(", ")}`);
    if (input.systemPrompt !== undefined) {
      const prompt = input.systemPrompt.split("\n");
      lines.push(`systemPrompt（${prompt.length} 行）：`);
      for (const line of prompt) lines.push(`  ${clip(line, 90)}`);
    }
    const notes: string[] = [];
    if (how === "complete") notes.push("runOneTurn 把整段历史交给 provider.complete，等它一次性回一段话。");
    else notes.push("core 调 provider.stream(input)，回答会一个事件一个事件地流回来。");
    if (this.n >= 4 && this.turnRequests > 1) {
      notes.push(
        this.n >= 6
          ? "同一轮里的又一次请求：本轮开头拍的快照，加上这一轮自己存下的消息（s06）。"
          : "同一轮里的又一次请求：刚存下的工具结果也在历史里，模型看得到它（每次都重新 buildProviderInput）。",
      );
    }
    if (input.systemPrompt !== undefined) notes.push("系统提示由项目资料拼成，和对话历史分开发（s08）。");
    this.add({
      kind: "request",
      lesson: how === "complete" ? "s01" : "s03",
      title: `第 ${this.requests} 次请求：provider.${how}(input)`,
      detail: lines.join("\n"),
      note: notes.join(""),
    });
  }

  reply(text: string): void {
    this.add({
      kind: "reply",
      lesson: "s01",
      title: "provider 回了一段话",
      detail: quote(text),
      note: "complete 一次交回整段文字；runOneTurn 把它包成一条 stopReason 为 stop 的助手消息。",
    });
  }

  event(event: Event): void {
    if (event.type === "message_start") {
      this.add({ kind: "stream", lesson: "s03", title: "流：message_start", detail: "message_start", note: "一条新消息开始了。" });
      this.openStream = this.steps.at(-1);
      return;
    }
    if (event.type === "text_delta") {
      const open = this.openStream;
      if (open !== undefined) {
        open.detail = `${open.detail ?? ""}\ntext_delta ${quote(event.text)}`;
        const pieces = (open.detail.match(/\ntext_delta /g) ?? []).length;
        open.title = `流：message_start，文字分 ${pieces} 段到达`;
        open.note = "一条新消息开始了；文字一段一段送来，collectAssistantMessage 边收边拼。";
        return;
      }
      this.add({ kind: "stream", lesson: "s03", title: "流：text_delta", detail: `text_delta ${quote(event.text)}`, note: "又一段文字，接在前面后面。" });
      this.openStream = this.steps.at(-1);
      return;
    }
    if (event.type === "tool_call") {
      const call = event.call;
      this.add({
        kind: "tool_call",
        lesson: "s04",
        title: `流：tool_call ${call.name}`,
        detail: `id ${call.id}\n${call.name}(${JSON.stringify(call.input)})`,
        note: "模型要调一个工具。recordToolCalls 先把它记下；只有这条回答以 toolUse 收尾，才会真的执行（D4）。",
      });
      return;
    }
    const notes: Record<string, string> = {
      toolUse: "以 toolUse 收尾：模型在等工具结果。先把这条回答存进历史，再按顺序执行刚才记下的调用。",
      stop: "以 stop 收尾：这就是这一轮的回答，循环到此为止。",
      error: "以 error 收尾：provider 自己说出错了。",
    };
    this.add({
      kind: "message_end",
      lesson: event.stopReason === "toolUse" ? "s04" : "s03",
      title: `流：message_end（${event.stopReason}）`,
      detail: `message_end stopReason=${quote(event.stopReason)}`,
      note: notes[event.stopReason] ?? "消息结束。",
    });
  }

  thrown(error: unknown, how: "complete" | "stream"): void {
    this.add({
      kind: "throw",
      lesson: how === "complete" ? "s01" : "s03",
      title: "provider 抛错",
      detail: describe(error),
      note:
        how === "complete"
          ? "异常不往外抛：runOneTurn 捕获它，写成一条 stopReason 为 error 的助手消息存下来（R4 ①）。"
          : "流在半路断了：已经收到的文字保留，后面接一行 error: …，这条消息的 stopReason 是 error（D6、R4 ①）。",
    });
  }

  // ── 工具 ──
  register(name: string, error: unknown): void {
    const group = this.groups.at(-1);
    if (group !== undefined && error === undefined) {
      group.push(name);
      return;
    }
    if (this.setupRegistrations > 0) {
      this.setupRegistrations--;
      return;
    }
    this.add({
      kind: "register",
      lesson: "s02",
      title: error === undefined ? `登记工具 ${name}` : `登记工具 ${name} 失败`,
      detail: error === undefined ? `registry.register(${name})` : `registry.register(${name})\n抛出：${describe(error)}`,
      note:
        error === undefined
          ? "登记进 registry；工具清单只从 registry 取，下一次请求模型就看得到它。"
          : "同名工具已经登记过：register 报错，registry 保持原样。",
    });
  }

  tool(call: Call, result: string): void {
    const failed = result.startsWith("error: ");
    const unknown = result.startsWith("error: unknown tool");
    this.add({
      kind: "tool",
      lesson: "s04",
      title: failed ? `执行 ${call.name}：出错，写成结果` : `执行 ${call.name}`,
      detail: `${call.name}(${JSON.stringify(call.input)})\n→ ${quote(result)}`,
      note: unknown
        ? "没有登记过这个工具：ToolRegistry.run 直接回一段 error 文字，没有任何 handler 被调用，也不抛错（R4 ②）。"
        : failed
          ? "出错不往外抛：ToolRegistry.run 把它写成 error: 开头的结果，交回模型，由模型决定下一步（R4 ②）。"
          : "ToolRegistry.run 校验参数、执行 handler，结果是一段文字。",
    });
  }

  // ── 历史 ──
  stored(msg: Msg, entry: { id: string; parentId: string | null } | undefined): void {
    const e: ReplayEntry = { role: msg.role, content: msg.content };
    if (entry !== undefined) {
      e.id = entry.id;
      e.parentId = entry.parentId;
    }
    if (msg.stopReason !== undefined) e.stopReason = msg.stopReason;
    if (msg.toolCallId !== undefined) e.toolCallId = msg.toolCallId;
    const where = entry === undefined ? "存进历史" : `存进会话树 ${entry.id}${entry.parentId === null ? "（根）" : `（挂在 ${entry.parentId} 下）`}`;
    const treeNote = entry === undefined ? "" : "每条消息都是树上的一个节点，带 id 和 parentId；新节点成为叶子（s07）。";
    if (msg.role === "user") {
      this.turnRequests = 0;
      this.add({
        kind: "user",
        lesson: entry === undefined ? "s01" : "s07",
        title: `用户：${clip(msg.content, 60)}`,
        detail: `${where}\nuser: ${msg.content}`,
        note: `先把用户说的话存下来，再去问模型。${treeNote}`,
        entry: e,
      });
      return;
    }
    let lesson = entry === undefined ? "s01" : "s07";
    let note: string;
    if (msg.role === "toolResult") {
      lesson = entry === undefined ? "s04" : "s07";
      note = `工具结果作为一条消息存下，toolCallId ${msg.toolCallId ?? ""} 对回那次调用；下一次请求模型就能看到它。`;
    } else if (msg.content === "max turns reached") {
      lesson = "s04";
      note = "问满 maxTurns 次还没停：存一条 max turns reached（stopReason 为 stop），循环一定会停（R5）。";
    } else if (msg.stopReason === "toolUse") {
      if (entry === undefined) lesson = "s04";
      note = "这条回答先存进历史（stopReason 为 toolUse），它要的工具结果按调用顺序跟在后面（D4）。";
    } else if (msg.stopReason === "error") {
      note = "出错也只是一条消息：stopReason 为 error，存进历史，不往外抛（R4 ①）。";
    } else {
      note = "回答连同它的 stopReason 存进历史（R1：stopReason 永远跟着助手消息）。";
    }
    this.add({
      kind: "stored",
      lesson,
      title: `${where}：${msg.role}${msg.stopReason !== undefined ? `（${msg.stopReason}）` : ""}`,
      detail: `${msg.role}${msg.toolCallId !== undefined ? `(${msg.toolCallId})` : ""}${msg.stopReason !== undefined ? `[${msg.stopReason}]` : ""}: ${msg.content}`,
      note: `${note}${treeNote}`,
      entry: e,
    });
  }

  moveTo(id: string, error: unknown): void {
    this.add({
      kind: "tree",
      lesson: "s07",
      title: error === undefined ? `moveTo ${id}` : `moveTo ${id} 失败`,
      detail: error === undefined ? `叶子 → ${id}` : `抛出：${describe(error)}`,
      note:
        error === undefined
          ? `叶子移到 ${id}：下一条消息挂在它下面，另起一支；原来那支一条不丢，只是不在当前路径上，不再发给模型。`
          : "没有这个节点：moveTo 报错，树保持原样。",
      ...(error === undefined ? { leaf: id } : {}),
    });
  }

  turnEnd(how: "runOneTurn" | "runEventedToolLoop", reply: Msg): void {
    this.add({
      kind: "return",
      lesson: how === "runOneTurn" ? "s01" : "s04",
      title: `${how} 返回`,
      detail: `${reply.role}[${reply.stopReason ?? "-"}]: ${reply.content}`,
      note: how === "runOneTurn" ? "这一轮结束，返回最后一条助手消息。" : "循环结束，返回最后一条助手消息。",
    });
  }

  // ── 扩展、命令、包 ──
  beginGroup(): void {
    this.groups.push([]);
  }

  endGroup(): string[] {
    return this.groups.pop() ?? [];
  }

  extension(name: string, tools: string[], errors: string[]): void {
    const failed = errors.length > 0;
    this.add({
      kind: "extension",
      lesson: "s09",
      title: failed ? `use(${name})：装载失败` : `use(${name})`,
      detail: [tools.length > 0 ? `登记工具：${tools.join(", ")}` : "没有登记工具", ...errors].join("\n"),
      note: failed
        ? "扩展装到一半抛错：它登记的东西一样都不留，错误记进 runtime.errors，不往外抛（D10）。"
        : "扩展登记的工具进的是同一个 registry，和内置工具走同一条执行链，钩子照样管得到它。",
    });
  }

  runtimeEvent(event: RuntimeEventLike): void {
    this.add({
      kind: "event",
      lesson: "s09",
      title: `广播事件：${event.type}`,
      detail: event.type === "message" ? `{ type: "message", content: ${quote(clip(event.content, 100))} }` : `{ type: "done" }`,
      note:
        event.type === "message"
          ? "循环每存下一条消息就广播一次 message 事件，扩展的处理函数都会收到（D11）。"
          : this.n >= 10
            ? "这一轮结束，广播 done；随后运行模式把这一轮的事件一次呈现出来（s10）。"
            : "这一轮结束，广播 done。",
    });
  }

  command(name: string, result: string): void {
    this.add({
      kind: "command",
      lesson: "s09",
      title: `命令 /${name}`,
      detail: `→ ${quote(result)}`,
      note: result.startsWith("error: ")
        ? "没有这个命令，或者命令出了错：结果写成 error: …，不抛错。"
        : "命令由扩展登记，直接返回文字，不经过模型。",
    });
  }

  pkg(name: string, tools: string[], error: unknown): void {
    this.add({
      kind: "package",
      lesson: "s12",
      title: error === undefined ? `装包 ${name}` : `装包 ${name}：整包拒绝`,
      detail: error === undefined ? `登记工具：${tools.join(", ") || "无"}` : `抛出：${describe(error)}`,
      note:
        error === undefined
          ? "先查完所有冲突，再通过一个扩展登记工具和命令，最后换一个带上包资料的 loader（D13）。"
          : "有冲突或缺件：整包拒绝，什么都没装上。",
    });
  }
}

/** 记录用的 provider：记下每次请求的输入和流出的每个事件，事件原样转交。 */
function recordingProvider(inner: ProviderLike, rec: Recorder): ProviderLike {
  const out: ProviderLike = {};
  const complete = inner.complete?.bind(inner);
  const stream = inner.stream?.bind(inner);
  if (complete !== undefined) {
    out.complete = async (input: Input): Promise<string> => {
      rec.request(input, "complete");
      try {
        const text = await complete(input);
        rec.reply(text);
        return text;
      } catch (error) {
        rec.thrown(error, "complete");
        throw error;
      }
    };
  }
  if (stream !== undefined) {
    out.stream = (input: Input): AsyncGenerator<Event> => {
      rec.request(input, "stream");
      return relay(stream(input), rec);
    };
  }
  return out;
}

async function* relay(events: AsyncGenerator<Event>, rec: Recorder): AsyncGenerator<Event> {
  try {
    for await (const event of events) {
      rec.event(event);
      yield event;
    }
  } catch (error) {
    rec.thrown(error, "stream");
    throw error;
  }
}

/** 这一课模块的包装：入口和几个类换成会记录的版本，其余原样。 */
function instrument(mod: LessonModule, rec: Recorder): LessonModule {
  const wrapped: LessonModule = { ...mod };
  /** 装包时 packageInstaller 这个扩展登记的工具，记进装包那一步。 */
  const pendingPackageTools: string[] = [];
  wrapped.createFakeProvider = () => recordingProvider(mod.createFakeProvider(), rec);
  wrapped.runOneTurn = async (agent, userInput) => {
    rec.attach(agent);
    const reply = await mod.runOneTurn(agent, userInput);
    rec.turnEnd("runOneTurn", reply);
    return reply;
  };
  wrapped.runEventedToolLoop = async (agent, maxTurns) => {
    rec.attach(agent);
    const last = rec.steps.at(-1);
    if (last?.kind === "user" && maxTurns !== undefined) {
      last.note = `这次不经过 runOneTurn：先存下用户消息，再直接调 runEventedToolLoop(agent, ${maxTurns})，上限只有 ${maxTurns} 次。`;
    }
    const reply = await mod.runEventedToolLoop(agent, maxTurns);
    rec.turnEnd("runEventedToolLoop", reply);
    return reply;
  };
  if ("ToolRegistry" in mod && mod.ToolRegistry !== undefined) {
    wrapped.ToolRegistry = class RecordingRegistry extends mod.ToolRegistry {
      register(tool: ToolLike): void {
        try {
          super.register(tool);
        } catch (error) {
          rec.register(tool.spec.name, error);
          throw error;
        }
        rec.register(tool.spec.name, undefined);
      }
      run(call: Call): string {
        const run = super.run;
        if (run === undefined) throw new Error("this lesson's ToolRegistry has no run()");
        const result = run.call(this, call);
        rec.tool(call, result);
        return result;
      }
    };
  }
  if ("SessionTree" in mod && mod.SessionTree !== undefined) {
    wrapped.SessionTree = class RecordingTree extends mod.SessionTree {
      append(msg: Msg): ReturnType<Tree["append"]> {
        const entry = super.append(msg);
        rec.stored(msg, entry);
        return entry;
      }
      moveTo(id: string): void {
        try {
          super.moveTo(id);
        } catch (error) {
          rec.moveTo(id, error);
          throw error;
        }
        rec.moveTo(id, undefined);
      }
    };
  }
  if ("ExtensionRuntime" in mod && mod.ExtensionRuntime !== undefined) {
    wrapped.ExtensionRuntime = class RecordingRuntime extends mod.ExtensionRuntime {
      use(ext: (api: ExtensionApiLike) => void): void {
        // runScenario 自己挂的事件记录器不是演示的一部分。
        if (ext.name === "traceRecorder") return super.use(ext);
        const before = this.errors.length;
        rec.beginGroup();
        try {
          super.use(ext);
        } finally {
          const tools = rec.endGroup();
          if (ext.name !== "packageInstaller") rec.extension(ext.name || "(匿名扩展)", tools, this.errors.slice(before));
          else pendingPackageTools.push(...tools);
        }
      }
      emit(event: RuntimeEventLike): void {
        rec.runtimeEvent(event);
        super.emit(event);
      }
      runCommand(name: string): string {
        const result = super.runCommand(name);
        rec.command(name, result);
        return result;
      }
    };
  }
  if ("loadPackage" in mod && mod.loadPackage !== undefined) {
    wrapped.loadPackage = (pkg) => {
      try {
        return mod.loadPackage(pkg);
      } catch (error) {
        const manifest = typeof pkg === "object" && pkg !== null && "manifest" in pkg ? pkg.manifest : undefined;
        const name = typeof manifest === "object" && manifest !== null && "name" in manifest ? String(manifest.name) : "?";
        rec.pkg(name, [], error);
        throw error;
      }
    };
    wrapped.installPackage = (agent, loaded) => {
      rec.attach(agent);
      pendingPackageTools.length = 0;
      try {
        mod.installPackage(agent, loaded);
      } catch (error) {
        rec.pkg(loaded.name, [], error);
        throw error;
      }
      rec.pkg(loaded.name, [...pendingPackageTools], undefined);
    };
  }
  return wrapped;
}

function setupLines(mod: LessonModule, n: number, scenario: Scenario): string[] {
  const lines = ["provider：课里的假模型 createFakeProvider()，按问题照剧本回答"];
  if (n >= 2) {
    const tools = (scenario.tools ?? []).map((t) => (typeof t === "string" ? t : t.name));
    lines.push(`工具：${tools.length > 0 ? tools.join(", ") : "（一个也没登记）"}`);
  }
  if (scenario.hooks?.gate === true) lines.push("钩子：createPermissionGate()——拦下删除，给结果里的密钥打码");
  else if (n >= 5) lines.push("钩子：无");
  if (scenario.resources !== undefined) {
    const resources = scenario.resources === "demo" ? mod.createDemoResources() : scenario.resources;
    lines.push(`项目资料：${resources.length > 0 ? resources.map((r) => `${r.name}（${r.kind}）`).join(", ") : "（没有）"}`);
  }
  if (n >= 11) lines.push(`信任：${scenario.trust ?? "trusted"}`);
  if (n >= 10) lines.push(`运行模式：${scenario.mode === "json" ? "JsonMode" : "PrintMode"}`);
  lines.push(`历史：${n >= 7 ? "会话树 SessionTree" : "消息数组"}`);
  return lines;
}

/** 录一课的回放。每个演示场景跑两遍：包装过的一遍记录，原样的一遍对照，两份轨迹必须相同。 */
export async function recordReplay(lesson: string): Promise<Replay> {
  const scenarios = demoScenarios(lesson);
  if (scenarios.length === 0) throw new Error(`${lesson} has no demo scenario in tests/scenarios.ts`);
  const n = lessonNumber(lesson);
  const mod = await importLesson(lesson);
  const rec = new Recorder(lesson, n);
  const replay: Replay = { lesson, runs: [], steps: rec.steps };
  for (const scenario of scenarios) {
    const setupTools = n >= 2 ? (scenario.tools ?? []).length : 0;
    rec.startRun(setupTools);
    const setup = setupLines(mod, n, scenario);
    replay.runs.push({ id: scenario.id, about: scenario.about, setup });
    rec.add({
      kind: "scene",
      lesson: tag(1),
      title: `演示：${scenario.about}`,
      detail: setup.join("\n"),
      note: `和 npm run ${lesson} 里 main() 做的事一样（场景 ${scenario.id}，tests/scenarios.ts）。一步一步往下点，看每一步是哪个零件在干活。`,
    });
    const recorded = await runScenario(lesson, instrument(mod, rec), scenario);
    const plain = await runScenario(lesson, mod, scenario);
    if (!isDeepStrictEqual(recorded, plain)) {
      throw new Error(`${scenario.id}: the recording wrapper changed what ${lesson} does; the replay would not show the real run`);
    }
  }
  return replay;
}

/** 有演示场景的课，按课号。 */
export function replayLessons(lessons: readonly string[]): string[] {
  return lessons.filter((id) => demoScenarios(id).length > 0);
}

export type { Replay, StepKind };
