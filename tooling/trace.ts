// 场景 → 轨迹。场景是纯数据（tests/scenarios.ts）：用户输入、剧本 provider 的回答（或课里的假 provider）、
// 工具、钩子、资料、信任、扩展、包、moveTo。把一个场景放到某一课上跑一遍，得到它的轨迹：
// 存下的消息（按顺序）、provider 每次收到的输入、Output 写出的行，s09 起还有运行时事件和扩展错误。
// 黄金文件 tests/golden/<场景>.json 是引入这个场景的那一课跑出的轨迹（npm run golden 重写）。
import { join } from "node:path";
import {
  ROOT,
  type Call,
  type ExtensionApiLike,
  type Hooks,
  type Input,
  type LessonModule,
  type Msg,
  type ProviderLike,
  type RuntimeEventLike,
  type Step,
  type TestAgent,
  type ToolLike,
  type Tree,
  lessonNumber,
  makeAgent,
  pushMessage,
  recordingProvider,
  scriptedProvider,
} from "./lessons.ts";

// ── 场景数据的形状 ───────────────────────────────────────
/** 工具干什么：默认回显参数（`名字:参数1,参数2`）。 */
export type ToolBehaviour =
  | { returns: string }
  | { throws: string }
  /** 执行时往 registry 再登记一个工具（一轮之内登记的工具何时可见，D20）。 */
  | { registers: ToolData; returns: string }
  /** 执行时往 state 里塞一条消息（快照之外的写入，s06）。 */
  | { appends: Msg; returns: string }
  /** 回一个不是字符串的值（ToolHandler 的契约在运行时也算数，D27）。 */
  | { returnsValue: unknown };

export type ToolData = { name: string; params?: string[]; does?: ToolBehaviour };

export type HooksData = {
  /** 用这一课的 createPermissionGate()（演示用的权限闸）。 */
  gate?: true;
  /** 工具名 → 拦下的原因。 */
  block?: Record<string, string>;
  /** afterToolCall 把结果改成大写。 */
  upper?: true;
  beforeThrows?: string;
  afterThrows?: string;
  /** 工具名 → beforeToolCall 对它回的值（可以不是像样的 allow/block，D28）。 */
  beforeReturns?: Record<string, unknown>;
  /** afterToolCall 一律回这个值，不管结果是什么（D28）。 */
  afterReturns?: unknown;
};

export type CommandData = string | { throws: string };
/** "stats" / "broken" 是这一课导出的演示扩展；对象是数据写成的扩展。 */
export type ExtensionData =
  | "stats"
  | "broken"
  | { name: string; tools?: ToolData[]; commands?: Record<string, CommandData>; listenerThrows?: string; throws?: string };

export type PackageData = "demo" | { manifest: unknown; contents: unknown };

export type ResourceData = { kind: "agents" | "skill" | "prompt"; name: string; content: string };

export type ScenarioStep =
  | { turn: string }
  /** 先存一条用户消息，再直接跑工具循环，指定 maxTurns。 */
  | { loop: string; maxTurns: number }
  | { moveTo: string }
  | { command: string }
  /** 字符串 = 这一课 createDemoTools() 里同名的工具。 */
  | { register: string | ToolData }
  | { use: ExtensionData }
  | { install: PackageData }
  /** 换 state.model；给了 provider 就把它登记进 agent.providers，作为这个模型的 provider（s06 起）。 */
  | { model: string; provider?: ScriptData };

/** 剧本 provider：第 n 次请求回 responses[n]；之后每次回 then（其中调用 id 里的 {n} 换成请求序号），没有 then 就回一句 "(script ended)"。 */
export type ScriptData = { responses: Step[][]; then?: Step[] };

export type Scenario = {
  id: string;
  /** 引入它的课：黄金文件由这一课产出，这一课及之后的每一课都要复现。 */
  since: string;
  about: string;
  /** "fake" = 这一课自己的 createFakeProvider()（演示场景）。 */
  provider: "fake" | ScriptData;
  /** 字符串 = 这一课 createDemoTools() 里同名的工具。 */
  tools?: (string | ToolData)[];
  hooks?: HooksData;
  resources?: "demo" | ResourceData[];
  trust?: "trusted" | "untrusted";
  mode?: "print" | "json";
  steps: ScenarioStep[];
};

// ── 轨迹 ─────────────────────────────────────────────────
export type TraceMsg = { role: string; content: string; stopReason?: string; toolCallId?: string };
export type TraceRequest = { messages: string[]; tools?: string[]; systemPrompt?: string };
export type Trace = {
  /** 每一步一行：做了什么，得到什么。 */
  steps: string[];
  /** 存下的全部消息，按存入顺序（s07 起是 allEntries()，含不在当前路径上的分支）。 */
  messages: TraceMsg[];
  /** 只有用到 moveTo 的场景才有：最后的当前路径和整棵树。 */
  path?: TraceMsg[];
  tree?: string[];
  /** provider 每次收到的输入。 */
  requests: TraceRequest[];
  /** Output 写出的每一行。 */
  output: string[];
  /** s09 起：运行时广播的事件和扩展记下的错误。 */
  events?: RuntimeEventLike[];
  errors?: string[];
};

/**
 * 轨迹里随课出现的字段：在那一课之前根本没有这个零件，所以拿后面的课和早先的黄金文件比时，先把这些字段去掉。
 * 这是「只增」，不算差异；差异（同一字段取值不同）只能列在 tests/differences.ts。
 */
export const TRACE_FIELDS: { field: string; since: string; reason: string }[] = [
  { field: "requests[].tools", since: "s02", reason: "ProviderInput.tools 从 s02 起才有（工具清单取自 registry）" },
  { field: "requests[].systemPrompt", since: "s08", reason: "ProviderInput.systemPrompt 从 s08 起才有（资料拼进系统提示）" },
  { field: "events", since: "s09", reason: "RuntimeEvent 从 s09 起才有（D11）" },
  { field: "errors", since: "s09", reason: "ExtensionRuntime.errors 从 s09 起才有（D10）" },
];

const hasField = (lesson: string, field: string): boolean => {
  const entry = TRACE_FIELDS.find((f) => f.field === field);
  if (entry === undefined) throw new Error(`unknown trace field ${field}`);
  return lessonNumber(lesson) >= lessonNumber(entry.since);
};

/** 把一条轨迹裁成某一课就有的字段。 */
export function projectTrace(trace: Trace, lesson: string): Trace {
  const out: Trace = { ...trace, requests: trace.requests.map((r) => ({ ...r })) };
  for (const r of out.requests) {
    if (!hasField(lesson, "requests[].tools")) delete r.tools;
    if (!hasField(lesson, "requests[].systemPrompt")) delete r.systemPrompt;
  }
  if (!hasField(lesson, "events")) delete out.events;
  if (!hasField(lesson, "errors")) delete out.errors;
  return out;
}

/** 一个场景要用到的零件最早在哪一课出现；场景的 since 不能早于它。 */
export function scenarioNeeds(s: Scenario): string {
  const needs = ["s01"];
  const uses = JSON.stringify(s);
  if (s.tools !== undefined || s.steps.some((st) => "register" in st)) needs.push("s02");
  if (s.provider !== "fake" && /"tool_call"/.test(uses)) needs.push("s04");
  if (s.steps.some((st) => "loop" in st)) needs.push("s04");
  if (s.hooks !== undefined) needs.push("s05");
  if (s.steps.some((st) => "model" in st)) needs.push("s06");
  if (s.steps.some((st) => "moveTo" in st)) needs.push("s07");
  if (s.resources !== undefined) needs.push("s08");
  if (s.steps.some((st) => "command" in st || "use" in st)) needs.push("s09");
  if (s.mode !== undefined) needs.push("s10");
  if (s.trust !== undefined) needs.push("s11");
  if (s.steps.some((st) => "install" in st)) needs.push("s12");
  return needs.sort().at(-1) ?? "s01";
}

// ── 跑一个场景 ───────────────────────────────────────────
const traceMsg = (m: TraceMsg): TraceMsg => {
  const out: TraceMsg = { role: m.role, content: m.content };
  if (m.stopReason !== undefined) out.stopReason = m.stopReason;
  if (m.toolCallId !== undefined) out.toolCallId = m.toolCallId;
  return out;
};

const requestLine = (m: Msg): string => `${m.role}${m.toolCallId !== undefined ? `(${m.toolCallId})` : ""}: ${m.content}`;

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function scriptFor(data: ScriptData): (input: Input, n: number) => Step[] {
  return (_input, n) => {
    const fixed = data.responses[n];
    if (fixed !== undefined) return structuredClone(fixed);
    if (data.then === undefined) return [{ type: "message_start" }, { type: "text_delta", text: "(script ended)" }, { type: "message_end", stopReason: "stop" }];
    return structuredClone(data.then).map((step) =>
      step.type === "tool_call" ? { ...step, call: { ...step.call, id: step.call.id.replace("{n}", String(n)) } } : step,
    );
  };
}

type Ctx = { id: string; mod: LessonModule; agent: () => TestAgent };

function buildTool(ctx: Ctx, data: ToolData): ToolLike {
  const params = data.params ?? [];
  const does = data.does;
  return {
    spec: { name: data.name, description: `${data.name} tool`, input: Object.fromEntries(params.map((p) => [p, p])) },
    handler: (input) => {
      if (does === undefined) return `${data.name}:${params.map((p) => input[p]).join(",")}`;
      if ("throws" in does) throw new Error(does.throws);
      if ("returnsValue" in does) return does.returnsValue as string;
      if ("registers" in does) ctx.agent().registry?.register(buildTool(ctx, does.registers));
      if ("appends" in does) pushMessage(ctx.agent(), does.appends);
      return does.returns;
    },
  };
}

function resolveTool(ctx: Ctx, tool: string | ToolData): ToolLike {
  if (typeof tool !== "string") return buildTool(ctx, tool);
  const found = ctx.mod.createDemoTools().find((t) => t.spec.name === tool);
  if (found === undefined) throw new Error(`${ctx.id} has no demo tool "${tool}"`);
  return found;
}

function buildHooks(ctx: Ctx, data: HooksData): Hooks {
  const gate = data.gate === true ? ctx.mod.createPermissionGate() : {};
  const hooks: Hooks = {};
  hooks.beforeToolCall = (call: Call) => {
    if (data.beforeThrows !== undefined) throw new Error(data.beforeThrows);
    if (data.beforeReturns !== undefined && Object.hasOwn(data.beforeReturns, call.name)) return data.beforeReturns[call.name] as { type: "allow" };
    const reason = data.block?.[call.name];
    if (reason !== undefined) return { type: "block", reason };
    return gate.beforeToolCall?.(call) ?? { type: "allow" };
  };
  hooks.afterToolCall = (call: Call, result: string) => {
    if (data.afterThrows !== undefined) throw new Error(data.afterThrows);
    if ("afterReturns" in data) return data.afterReturns as string;
    const gated = gate.afterToolCall?.(call, result) ?? result;
    return data.upper === true ? gated.toUpperCase() : gated;
  };
  return hooks;
}

function buildExtension(ctx: Ctx, data: ExtensionData): (api: ExtensionApiLike) => void {
  if (data === "stats") return ctx.mod.statsExtension;
  if (data === "broken") return ctx.mod.brokenExtension;
  const ext = (api: ExtensionApiLike): void => {
    for (const tool of data.tools ?? []) api.registerTool(buildTool(ctx, tool));
    for (const [name, command] of Object.entries(data.commands ?? {})) {
      api.registerCommand({
        name,
        run: () => {
          if (typeof command !== "string") throw new Error(command.throws);
          return command;
        },
      });
    }
    const listenerThrows = data.listenerThrows;
    if (listenerThrows !== undefined) {
      api.on("message", () => {
        throw new Error(listenerThrows);
      });
    }
    if (data.throws !== undefined) throw new Error(data.throws);
  };
  Object.defineProperty(ext, "name", { value: data.name });
  return ext;
}

const replyLine = (m: Msg): string => `${m.role}[${m.stopReason ?? "-"}]: ${m.content}`;

/** 在 lesson（课号 id、已导入的模块 mod）上跑一个场景，得到它的轨迹。课里的 DEMO_FILES 跑完原样复原。 */
export async function runScenario(id: string, mod: LessonModule, scenario: Scenario): Promise<Trace> {
  const n = lessonNumber(id);
  if (n < lessonNumber(scenario.since)) throw new Error(`${scenario.id} is introduced in ${scenario.since}; cannot run on ${id}`);
  const savedFiles = n >= 2 ? { ...mod.DEMO_FILES } : undefined;
  try {
    return await run(id, mod, scenario);
  } finally {
    if (savedFiles !== undefined) {
      for (const key of Object.keys(mod.DEMO_FILES)) delete mod.DEMO_FILES[key];
      Object.assign(mod.DEMO_FILES, savedFiles);
    }
  }
}

async function run(id: string, mod: LessonModule, scenario: Scenario): Promise<Trace> {
  const n = lessonNumber(id);
  let agentRef: TestAgent | undefined;
  const ctx: Ctx = {
    id,
    mod,
    agent: () => {
      if (agentRef === undefined) throw new Error("agent not built yet");
      return agentRef;
    },
  };
  const { provider, inputs }: { provider: ProviderLike; inputs: Input[] } =
    scenario.provider === "fake" ? recordingProvider(mod.createFakeProvider()) : scriptedProvider(id, scriptFor(scenario.provider));
  const resources = scenario.resources === "demo" ? mod.createDemoResources() : scenario.resources;
  const { agent, lines, messages } = makeAgent(id, mod, {
    provider,
    tools: (scenario.tools ?? []).map((t) => resolveTool(ctx, t)),
    hooks: scenario.hooks === undefined ? undefined : buildHooks(ctx, scenario.hooks),
    resources,
    trust: scenario.trust,
  });
  agentRef = agent;
  if (scenario.mode === "json") agent.mode = new mod.JsonMode(agent.output);

  const events: RuntimeEventLike[] = [];
  if (n >= 9) {
    agent.runtime?.use(function traceRecorder(api) {
      api.on("message", (e) => void events.push({ ...e }));
      api.on("done", (e) => void events.push({ ...e }));
    });
  }

  const steps: string[] = [];
  const attempt = (label: string, action: () => void): void => {
    try {
      action();
      steps.push(label);
    } catch (error) {
      steps.push(`${label} → error: ${describe(error)}`);
    }
  };
  const tree = (): Tree => {
    const m = agent.state.messages;
    if (Array.isArray(m)) throw new Error(`${id} has no session tree`);
    return m;
  };

  for (const step of scenario.steps) {
    if ("turn" in step) {
      steps.push(`turn ${JSON.stringify(step.turn)} → ${replyLine(await mod.runOneTurn(agent, step.turn))}`);
    } else if ("loop" in step) {
      pushMessage(agent, { role: "user", content: step.loop });
      steps.push(`loop ${JSON.stringify(step.loop)} (maxTurns ${step.maxTurns}) → ${replyLine(await mod.runEventedToolLoop(agent, step.maxTurns))}`);
    } else if ("moveTo" in step) {
      attempt(`moveTo ${step.moveTo}`, () => tree().moveTo(step.moveTo));
    } else if ("command" in step) {
      steps.push(`/${step.command} → ${agent.runtime?.runCommand(step.command)}`);
    } else if ("register" in step) {
      const name = typeof step.register === "string" ? step.register : step.register.name;
      attempt(`register ${name}`, () => agent.registry?.register(resolveTool(ctx, step.register)));
    } else if ("model" in step) {
      if (step.provider !== undefined) {
        // 这个模型的 provider 收到的输入也记进同一份 requests，轨迹里看得到每一次请求
        const other = scriptedProvider(id, scriptFor(step.provider)).provider;
        const stream = other.stream;
        if (stream === undefined) throw new Error(`${id}: a provider per model needs the stream API (s03 on)`);
        agent.providers = {
          ...agent.providers,
          [step.model]: {
            async *stream(input: Input) {
              inputs.push(structuredClone(input));
              yield* stream(input);
            },
          },
        };
      }
      agent.state.model = step.model;
      steps.push(`model ${step.model}`);
    } else if ("use" in step) {
      const name = typeof step.use === "string" ? step.use : step.use.name;
      attempt(`use ${name}`, () => agent.runtime?.use(buildExtension(ctx, step.use)));
    } else {
      const pkg = step.install === "demo" ? mod.createDemoPackage() : structuredClone(step.install);
      const name = typeof pkg.manifest === "object" && pkg.manifest !== null && "name" in pkg.manifest ? String(pkg.manifest.name) : "?";
      attempt(`install ${name}`, () => mod.installPackage(agent, mod.loadPackage(pkg)));
    }
  }

  const stored = agent.state.messages;
  const trace: Trace = {
    steps,
    messages: (Array.isArray(stored) ? stored : stored.allEntries()).map(traceMsg),
    requests: inputs.map((input) => {
      const req: TraceRequest = { messages: input.messages.map(requestLine) };
      if (n >= 2) req.tools = (input.tools ?? []).map((t) => t.name);
      if (n >= 8) req.systemPrompt = input.systemPrompt;
      return req;
    }),
    output: lines,
  };
  if (scenario.steps.some((st) => "moveTo" in st)) {
    trace.path = messages().map(traceMsg);
    trace.tree = mod.renderTree(tree().allEntries());
  }
  if (n >= 9) {
    trace.events = events;
    trace.errors = [...(agent.runtime?.errors ?? [])];
  }
  return trace;
}

// ── 黄金文件 ─────────────────────────────────────────────
export const GOLDEN_DIR = join(ROOT, "tests", "golden");
export const goldenPath = (scenarioId: string): string => join(GOLDEN_DIR, `${scenarioId}.json`);
