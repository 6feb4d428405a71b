// 行为测试的公共底座：找出已有的课，按课号导入 code.ts，按这一课有的零件拼一个 Agent，
// 再给一个按剧本出事件的 provider。测试写一次，对「从引入它的那一课起」的每一课都跑。
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe } from "vitest";

export const ROOT = resolve(import.meta.dirname, "..");

/** 仓库里已有的课的文件夹，按课号排好，如 ["s01_one_turn", "s02_tools", …]。 */
export const LESSON_DIRS: string[] = readdirSync(ROOT)
  .filter((name) => /^s\d\d_[a-z_]+$/.test(name))
  .sort();

export const LESSONS: string[] = LESSON_DIRS.map((dir) => dir.slice(0, 3));

export const lessonNumber = (id: string): number => Number(id.slice(1, 3));

export const lessonDir = (id: string): string => {
  const dir = LESSON_DIRS.find((d) => d.startsWith(`${id}_`));
  if (dir === undefined) throw new Error(`no lesson folder for ${id}`);
  return dir;
};

// ── 课的模块，只写测试用得到的形状 ────────────────────────
export type Msg = { role: "user" | "assistant" | "toolResult"; content: string; stopReason?: string; toolCallId?: string };
export type Call = { id: string; name: string; input: Record<string, unknown> };
export type Event =
  | { type: "message_start" }
  | { type: "text_delta"; text: string }
  | { type: "message_end"; stopReason: string }
  | { type: "tool_call"; call: Call };
export type Input = { systemPrompt?: string; messages: Msg[]; tools?: { name: string; description: string; input: Record<string, string> }[] };
export type ToolLike = { spec: { name: string; description: string; input: Record<string, string> }; handler: (input: Record<string, string>) => string };
export type RuntimeEventLike = { type: "message"; content: string } | { type: "done" };

export interface Registry {
  register(tool: ToolLike): void;
  getSpecs(): ToolLike["spec"][];
  run?(call: Call): string;
}
export interface Tree {
  append(msg: Msg): { id: string; parentId: string | null; role: string; content: string };
  moveTo(id: string): void;
  currentPath(): Msg[];
  allEntries(): { id: string; parentId: string | null; role: string; content: string; toolCallId?: string; stopReason?: string }[];
}
export interface Loader {
  load(trust?: string): { kind: string; name: string; content: string }[];
}
export interface Runtime {
  use(ext: (api: ExtensionApiLike) => void): void;
  emit(event: RuntimeEventLike): void;
  runCommand(name: string): string;
  readonly errors: string[];
}
export type ExtensionApiLike = {
  on(type: "message" | "done", handler: (e: RuntimeEventLike) => void): void;
  registerTool(tool: ToolLike): void;
  registerCommand(cmd: { name: string; run: () => string }): void;
};
export type ProviderLike = { complete?(input: Input): Promise<string>; stream?(input: Input): AsyncGenerator<Event> };
export type OutputLike = { log(line: string): void };
export type Hooks = {
  beforeToolCall?: (call: Call) => { type: "allow" } | { type: "block"; reason: string };
  afterToolCall?: (call: Call, result: string) => string;
};

export type TestAgent = {
  state: { messages: Msg[] | Tree; model?: string };
  provider: ProviderLike;
  output: OutputLike;
  registry?: Registry;
  hooks?: Hooks;
  providers?: Record<string, ProviderLike>;
  loader?: Loader;
  runtime?: Runtime;
  mode?: { render(events: RuntimeEventLike[]): void };
  trust?: string;
  packages?: string[];
};

export interface LessonModule {
  runOneTurn(agent: TestAgent, userInput: string): Promise<Msg>;
  runEventedToolLoop(agent: TestAgent, maxTurns?: number): Promise<Msg>;
  buildProviderInput(agent: TestAgent): Input;
  collectAssistantMessage(events: AsyncIterable<Event>): Promise<Msg>;
  executeToolCall(registry: Registry, hooks: Hooks, call: Call): Msg;
  createTurnSnapshot(input: Input): Input;
  buildSystemPrompt(resources: { kind: string; name: string; content: string }[]): string;
  loadPackage(pkg: unknown): { name: string; tools: Record<string, string>; commands: Record<string, string>; resources: Record<string, string> };
  installPackage(agent: TestAgent, loaded: ReturnType<LessonModule["loadPackage"]>): void;
  ToolRegistry: new () => Registry;
  SessionTree: new () => Tree;
  ResourceLoader: new (resources: { kind: string; name: string; content: string }[]) => Loader;
  ExtensionRuntime: new (registry: Registry) => Runtime;
  PrintMode: new (output: OutputLike) => { render(events: RuntimeEventLike[]): void };
  JsonMode: new (output: OutputLike) => { render(events: RuntimeEventLike[]): void };
  DEFAULT_MAX_TURNS: number;
  // 不抛错的描述（s01 describeError，s03 起 describeValue）：性质测试直接敲它们。
  describeError(error: unknown): string;
  describeValue(value: unknown): string;
  // 演示用的零件（D17）：黄金轨迹把每课 main() 的演示当数据重放时用。
  createFakeProvider(): ProviderLike;
  createDemoTools(): ToolLike[];
  DEMO_FILES: Record<string, string>;
  createPermissionGate(): Hooks;
  renderTree(entries: ReturnType<Tree["allEntries"]>): string[];
  createDemoResources(): { kind: "agents" | "skill" | "prompt"; name: string; content: string }[];
  statsExtension: (api: ExtensionApiLike) => void;
  brokenExtension: (api: ExtensionApiLike) => void;
  createDemoPackage(): { manifest: { name: string; tools: string[]; commands: string[]; resources: string[] }; contents: Record<string, string> };
  SYSTEM_PREAMBLE: string;
}

const cache = new Map<string, Promise<LessonModule>>();

/**
 * 练习模式的钩子（scripts/practice/）：环境变量 LEARN_PI_LESSON_FILE="s04=/绝对路径/code.ts" 让这一课改导入那个文件，
 * 同一批测试就检查学习者自己写的版本。没设这个变量时什么都不变。
 */
export const LESSON_FILE_ENV = "LEARN_PI_LESSON_FILE";
const lessonFile = (id: string): string => {
  const [lesson, file] = (process.env[LESSON_FILE_ENV] ?? "").split(/=(.*)/s);
  return lesson === id && file ? file : join(ROOT, lessonDir(id), "code.ts");
};

/** 导入一课的 code.ts。课和课之间不共享任何东西，每课是独立的模块。 */
export function importLesson(id: string): Promise<LessonModule> {
  let mod = cache.get(id);
  if (mod === undefined) {
    mod = import(pathToFileURL(lessonFile(id)).href) as Promise<LessonModule>;
    cache.set(id, mod);
  }
  return mod;
}

/**
 * 对 from（含）到 to（含）之间每一门已有的课各开一个 describe。行为一旦在某课引入，后面每一课都得守住。
 */
export function forLessonsFrom(from: string, body: (id: string, load: () => Promise<LessonModule>) => void, to = "s99"): void {
  for (const id of LESSONS.filter((l) => lessonNumber(l) >= lessonNumber(from) && lessonNumber(l) <= lessonNumber(to))) {
    describe(id, () => body(id, () => importLesson(id)));
  }
}

// ── 剧本 provider ──────────────────────────────────────────
/** 一次回答的剧本：一串事件；"throw" 表示在那个位置抛错。 */
export type Step = Event | { type: "throw"; message: string };
export type Script = (input: Input, call: number) => Step[];

export const text = (t: string, stopReason = "stop"): Step[] => [
  { type: "message_start" },
  { type: "text_delta", text: t },
  { type: "message_end", stopReason },
];
export const toolUse = (lead: string, ...calls: Call[]): Step[] => [
  { type: "message_start" },
  ...(lead === "" ? [] : [{ type: "text_delta" as const, text: lead }]),
  ...calls.map((call) => ({ type: "tool_call" as const, call })),
  { type: "message_end", stopReason: "toolUse" },
];

/** 按剧本出事件的 provider；inputs 记下它每次收到的输入（深拷贝），供断言。s01–s02 用 complete，之后用 stream。 */
export function scriptedProvider(id: string, script: Script): { provider: ProviderLike; inputs: Input[] } {
  const inputs: Input[] = [];
  const next = (input: Input): Step[] => {
    inputs.push(structuredClone(input));
    return script(input, inputs.length - 1);
  };
  if (lessonNumber(id) < 3) {
    return {
      inputs,
      provider: {
        async complete(input: Input): Promise<string> {
          let out = "";
          for (const step of next(input)) {
            if (step.type === "throw") throw new Error(step.message);
            if (step.type === "text_delta") out += step.text;
          }
          return out;
        },
      },
    };
  }
  return {
    inputs,
    provider: {
      async *stream(input: Input): AsyncGenerator<Event> {
        for (const step of next(input)) {
          // 剧本里也可以放坏事件（null、字符串……），原样交出去
          if (typeof step === "object" && step !== null && step.type === "throw") throw new Error(step.message);
          yield step as Event;
        }
      },
    },
  };
}

/** 包一层任意 provider（比如课里的 createFakeProvider()），记下它每次收到的输入（深拷贝），事件原样转发。 */
export function recordingProvider(inner: ProviderLike): { provider: ProviderLike; inputs: Input[] } {
  const inputs: Input[] = [];
  const provider: ProviderLike = {};
  const complete = inner.complete?.bind(inner);
  const stream = inner.stream?.bind(inner);
  if (complete !== undefined) {
    provider.complete = (input) => {
      inputs.push(structuredClone(input));
      return complete(input);
    };
  }
  if (stream !== undefined) {
    provider.stream = (input) => {
      inputs.push(structuredClone(input));
      return stream(input);
    };
  }
  return { provider, inputs };
}

export type AgentParts = {
  provider: ProviderLike;
  tools?: ToolLike[];
  hooks?: Hooks;
  resources?: { kind: "agents" | "skill" | "prompt"; name: string; content: string }[];
  trust?: "trusted" | "untrusted";
  mode?: { render(events: RuntimeEventLike[]): void };
};

/** 按这一课有的零件拼一个 Agent：缺的零件用最朴素的默认值。lines 收下 Output 写出的每一行。 */
export function makeAgent(id: string, mod: LessonModule, parts: AgentParts): { agent: TestAgent; lines: string[]; messages: () => Msg[] } {
  const n = lessonNumber(id);
  const lines: string[] = [];
  const output: OutputLike = { log: (line) => void lines.push(line) };
  const agent: TestAgent = { state: { messages: n >= 7 ? new mod.SessionTree() : [] }, provider: parts.provider, output };
  if (n >= 2) {
    agent.registry = new mod.ToolRegistry();
    for (const tool of parts.tools ?? []) agent.registry.register(tool);
  }
  if (n >= 5) agent.hooks = parts.hooks ?? {};
  if (n >= 6) agent.state.model = "test-model";
  if (n >= 8) agent.loader = new mod.ResourceLoader(parts.resources ?? []);
  if (n >= 9 && agent.registry !== undefined) agent.runtime = new mod.ExtensionRuntime(agent.registry);
  if (n >= 10) agent.mode = parts.mode ?? new mod.PrintMode(output);
  if (n >= 11) agent.trust = parts.trust ?? "trusted";
  if (n >= 12) agent.packages = [];
  const messages = (): Msg[] => {
    const m = agent.state.messages;
    return Array.isArray(m) ? m : m.currentPath();
  };
  return { agent, lines, messages };
}

/** 往历史里加一条消息，不管这一课的历史是数组（s01–s06）还是会话树（s07 起）。 */
export function pushMessage(agent: TestAgent, msg: Msg): void {
  const m = agent.state.messages;
  if (Array.isArray(m)) m.push(msg);
  else m.append(msg);
}

/** 一个按参数回文字的工具；calls 记下 handler 被调用的次数。 */
export function echoTool(name: string, params: string[] = ["text"]): { tool: ToolLike; calls: Record<string, string>[] } {
  const calls: Record<string, string>[] = [];
  return {
    calls,
    tool: {
      spec: { name, description: `${name} tool`, input: Object.fromEntries(params.map((p) => [p, p])) },
      handler: (input) => {
        calls.push(input);
        return `${name}:${params.map((p) => input[p]).join(",")}`;
      },
    },
  };
}
