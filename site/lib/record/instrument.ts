// 给一课的模块套一层会记录的包装，一个零件一个包装：provider、一轮的入口、agent（Output、钩子、历史数组）、
// ToolRegistry、SessionTree、ExtensionRuntime、装包。每个包装先记一笔再转给课里原来的实现，课的代码一行不改；
// 包装必须是透明的（recordReplay 会不包装再跑一遍，两份轨迹不一样就报错）。
import type { Call, Event, ExtensionApiLike, Hooks, Input, LessonModule, Msg, ProviderLike, RuntimeEventLike, TestAgent, ToolLike, Tree } from "../../../tooling/lesson.ts";
import { NARRATION } from "./narration.ts";
import type { Recorder } from "./recorder.ts";

// ── provider ──────────────────────────────────────────────
async function* relay(events: AsyncGenerator<Event>, rec: Recorder): AsyncGenerator<Event> {
  try {
    for await (const event of events) {
      rec.event(event);
      yield event;
    }
  } catch (error) {
    rec.add(NARRATION.provider.thrown(error, "stream"));
    throw error;
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
        rec.add(NARRATION.provider.reply(text));
        return text;
      } catch (error) {
        rec.add(NARRATION.provider.thrown(error, "complete"));
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

// ── agent：Output、钩子、历史数组 ─────────────────────────
function wrapBefore(before: NonNullable<Hooks["beforeToolCall"]>, rec: Recorder): Hooks["beforeToolCall"] {
  return (call: Call) => {
    let decision: ReturnType<typeof before>;
    try {
      decision = before(call);
    } catch (error) {
      rec.add(NARRATION.hook.beforeThrew(call, error));
      throw error;
    }
    rec.add(decision.type === "block" ? NARRATION.hook.blocked(call, decision.reason) : NARRATION.hook.allowed(call));
    return decision;
  };
}

function wrapAfter(after: NonNullable<Hooks["afterToolCall"]>, rec: Recorder): Hooks["afterToolCall"] {
  return (call: Call, result: string) => {
    let changed: string;
    try {
      changed = after(call, result);
    } catch (error) {
      rec.add(NARRATION.hook.afterThrew(call, error));
      throw error;
    }
    if (changed !== result) rec.add(NARRATION.hook.rewrote(call, result, changed));
    return changed;
  };
}

/** 数组历史（没有会话树的课）：push 先记一笔。不可枚举：快照、structuredClone、JSON 都看不见它。 */
function wrapHistoryArray(messages: Msg[], rec: Recorder): void {
  const push = messages.push.bind(messages);
  Object.defineProperty(messages, "push", {
    configurable: true,
    enumerable: false,
    writable: true,
    value: (...items: Msg[]): number => {
      for (const item of items) rec.stored(item, undefined);
      return push(...items);
    },
  });
}

const attached = new WeakMap<Recorder, WeakSet<object>>();

/** 第一次经过入口时给 agent 的 Output、钩子、历史数组装上记录。 */
function attach(agent: TestAgent, rec: Recorder): void {
  const seen = attached.get(rec) ?? new WeakSet<object>();
  attached.set(rec, seen);
  if (seen.has(agent)) return;
  seen.add(agent);
  const output = agent.output;
  const log = output.log.bind(output);
  output.log = (line: string): void => {
    rec.output(line);
    log(line);
  };
  const hooks = agent.hooks;
  if (hooks?.beforeToolCall !== undefined) hooks.beforeToolCall = wrapBefore(hooks.beforeToolCall, rec);
  if (hooks?.afterToolCall !== undefined) hooks.afterToolCall = wrapAfter(hooks.afterToolCall, rec);
  if (Array.isArray(agent.state.messages)) wrapHistoryArray(agent.state.messages, rec);
}

// ── 一课的各个零件 ────────────────────────────────────────
function wrapTurns(mod: LessonModule, wrapped: LessonModule, rec: Recorder): void {
  wrapped.runOneTurn = async (agent, userInput) => {
    attach(agent, rec);
    const reply = await mod.runOneTurn(agent, userInput);
    rec.add(NARRATION.history.turnEnd("runOneTurn", reply));
    return reply;
  };
  wrapped.runEventedToolLoop = async (agent, maxTurns) => {
    attach(agent, rec);
    const last = rec.steps.at(-1);
    if (last?.kind === "user" && maxTurns !== undefined) last.note = NARRATION.history.loopUserNote(maxTurns);
    const reply = await mod.runEventedToolLoop(agent, maxTurns);
    rec.add(NARRATION.history.turnEnd("runEventedToolLoop", reply));
    return reply;
  };
}

function wrapRegistry(Base: LessonModule["ToolRegistry"], rec: Recorder): LessonModule["ToolRegistry"] {
  return class RecordingRegistry extends Base {
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
      rec.add(NARRATION.tools.run(call, result));
      return result;
    }
  };
}

function wrapTree(Base: LessonModule["SessionTree"], rec: Recorder): LessonModule["SessionTree"] {
  return class RecordingTree extends Base {
    append(msg: Msg): ReturnType<Tree["append"]> {
      const entry = super.append(msg);
      rec.stored(msg, entry);
      return entry;
    }
    moveTo(id: string): void {
      try {
        super.moveTo(id);
      } catch (error) {
        rec.add(NARRATION.history.moveTo(id, error));
        throw error;
      }
      rec.add(NARRATION.history.moveTo(id, undefined));
    }
  };
}

/** packageTools：装包时 packageInstaller 这个扩展登记的工具，记进装包那一步，不单列成一次 use()。 */
function wrapRuntime(Base: LessonModule["ExtensionRuntime"], rec: Recorder, packageTools: string[]): LessonModule["ExtensionRuntime"] {
  return class RecordingRuntime extends Base {
    use(ext: (api: ExtensionApiLike) => void): void {
      // runScenario 自己挂的事件记录器不是演示的一部分。
      if (ext.name === "traceRecorder") return super.use(ext);
      const before = this.errors.length;
      rec.beginGroup();
      try {
        super.use(ext);
      } finally {
        const tools = rec.endGroup();
        if (ext.name !== "packageInstaller") rec.add(NARRATION.runtime.extension(ext.name || "(匿名扩展)", tools, this.errors.slice(before)));
        else packageTools.push(...tools);
      }
    }
    emit(event: RuntimeEventLike): void {
      rec.add(NARRATION.runtime.event(rec.lesson, event));
      super.emit(event);
    }
    runCommand(name: string): string {
      const result = super.runCommand(name);
      rec.add(NARRATION.runtime.command(name, result));
      return result;
    }
  };
}

function wrapPackages(mod: LessonModule, wrapped: LessonModule, rec: Recorder, packageTools: string[]): void {
  wrapped.loadPackage = (pkg) => {
    try {
      return mod.loadPackage(pkg);
    } catch (error) {
      const manifest = typeof pkg === "object" && pkg !== null && "manifest" in pkg ? pkg.manifest : undefined;
      const name = typeof manifest === "object" && manifest !== null && "name" in manifest ? String(manifest.name) : "?";
      rec.add(NARRATION.runtime.pkg(name, [], error));
      throw error;
    }
  };
  wrapped.installPackage = (agent, loaded) => {
    attach(agent, rec);
    packageTools.length = 0;
    try {
      mod.installPackage(agent, loaded);
    } catch (error) {
      rec.add(NARRATION.runtime.pkg(loaded.name, [], error));
      throw error;
    }
    rec.add(NARRATION.runtime.pkg(loaded.name, [...packageTools], undefined));
  };
}

/** 这一课模块的包装：入口和几个类换成会记录的版本，这一课没有的零件不包，其余原样。 */
export function wrapLesson(mod: LessonModule, rec: Recorder): LessonModule {
  const wrapped: LessonModule = { ...mod };
  const packageTools: string[] = [];
  wrapped.createFakeProvider = () => recordingProvider(mod.createFakeProvider(), rec);
  wrapTurns(mod, wrapped, rec);
  if (mod.ToolRegistry !== undefined) wrapped.ToolRegistry = wrapRegistry(mod.ToolRegistry, rec);
  if (mod.SessionTree !== undefined) wrapped.SessionTree = wrapTree(mod.SessionTree, rec);
  if (mod.ExtensionRuntime !== undefined) wrapped.ExtensionRuntime = wrapRuntime(mod.ExtensionRuntime, rec, packageTools);
  if (mod.loadPackage !== undefined) wrapPackages(mod, wrapped, rec, packageTools);
  return wrapped;
}
