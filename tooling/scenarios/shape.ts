// 场景和轨迹的形状。场景是纯数据（tooling/scenarios/data.ts）：用户输入、剧本 provider 的回答（或课里的假 provider）、
// 工具、钩子、资料、信任、扩展、包、moveTo。把一个场景放到某一课上跑一遍（tooling/scenarios/run.ts），得到它的轨迹：
// 存下的消息（按顺序）、provider 每次收到的输入、Output 写出的行，有扩展的课还有运行时事件和扩展错误。
import { type Feature, has, introducedIn } from "../features.ts";
import { lessonNumber } from "../course.ts";
import type { Msg, RuntimeEventLike } from "../lesson.ts";
import type { Step } from "../screenplay.ts";

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

// ── 随课出现的字段 ───────────────────────────────────────
/**
 * 轨迹里随课出现的字段：在那一课之前根本没有这个零件，所以拿后面的课和早先的黄金文件比时，先把这些字段去掉。
 * 这是「只增」，不算差异；差异（同一字段取值不同）只能列在 tooling/scenarios/differences.ts。
 */
export const TRACE_FIELDS = {
  "requests[].tools": { feature: "tools", reason: "ProviderInput.tools 从有 registry 起才有（工具清单取自 registry）" },
  "requests[].systemPrompt": { feature: "resources", reason: "ProviderInput.systemPrompt 从有资料起才有（资料拼进系统提示）" },
  events: { feature: "extensions", reason: "RuntimeEvent 从有扩展运行时起才有（D11）" },
  errors: { feature: "extensions", reason: "ExtensionRuntime.errors 从有扩展运行时起才有（D10）" },
} as const satisfies Record<string, { feature: Feature; reason: string }>;

/** 这一课的轨迹有没有这个字段。 */
export const hasField = (lesson: string, field: keyof typeof TRACE_FIELDS): boolean => has(lesson, TRACE_FIELDS[field].feature);

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

// ── 场景用到哪些零件 ─────────────────────────────────────
/** 一个场景用到的零件（场景的 since 不能早于其中任何一个的引入）。 */
export function scenarioFeatures(s: Scenario): Feature[] {
  const uses = (kind: string): boolean => s.steps.some((st) => kind in st);
  const found: [boolean, Feature][] = [
    [s.tools !== undefined || uses("register"), "tools"],
    [(s.provider !== "fake" && /"tool_call"/.test(JSON.stringify(s))) || uses("loop"), "toolLoop"],
    [s.hooks !== undefined, "hooks"],
    [uses("model"), "model"],
    [uses("moveTo"), "sessionTree"],
    [s.resources !== undefined, "resources"],
    [uses("command") || uses("use"), "extensions"],
    [s.mode !== undefined, "modes"],
    [s.trust !== undefined, "trust"],
    [uses("install"), "packages"],
  ];
  return found.filter(([used]) => used).map(([, feature]) => feature);
}

/** 一个场景要用到的零件最早在哪一课都有了。 */
export function scenarioNeeds(s: Scenario): string {
  return scenarioFeatures(s)
    .map(introducedIn)
    .reduce((a, b) => (lessonNumber(b) > lessonNumber(a) ? b : a), "s01");
}
