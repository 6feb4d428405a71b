// 课的模块：测试、场景、回放、保真对照和练习模式都通过这里导入一课的 code.ts，只写它们用得到的形状。
// 课和课之间不共享任何东西，每课是独立的模块；这里的类型是「从外面看一课」的样子，不是课里的类型。
import { pathToFileURL } from "node:url";
import { lessonCodePath } from "./course.ts";

// ── 课的模块，只写用得到的形状 ──────────────────────────
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
  return lesson === id && file ? file : lessonCodePath(id);
};

/** 每课刚导入时 DEMO_FILES 的样子（键的先后也算，ls 按它列文件）。 */
const firstDemoFiles = new Map<string, string>();
const demoFilesText = (mod: LessonModule): string | undefined => (mod.DEMO_FILES === undefined ? undefined : JSON.stringify(Object.entries(mod.DEMO_FILES)));

/** 导入一课的 code.ts（练习模式下可以是学习者的文件）。课和课之间不共享任何东西，每课是独立的模块。 */
export function importLesson(id: string): Promise<LessonModule> {
  let mod = cache.get(id);
  if (mod === undefined) {
    mod = (import(pathToFileURL(lessonFile(id)).href) as Promise<LessonModule>).then((m) => {
      const files = demoFilesText(m);
      if (files !== undefined) firstDemoFiles.set(id, files);
      return m;
    });
    cache.set(id, mod);
  }
  return mod;
}

/**
 * 导入过的课里，DEMO_FILES 和刚导入时不一样了的那些（演示的 rm 工具会删它；runScenario 跑完会放回去）。
 * 同一个进程里的测试文件共用课的模块（vitest.config.ts 的 isolate: false），tests/support/isolation.ts 在每个文件跑完时问它。
 */
export async function changedDemoFiles(): Promise<string[]> {
  const changed: string[] = [];
  for (const [id, mod] of cache) {
    const first = firstDemoFiles.get(id);
    const now = await mod.then(demoFilesText, () => undefined);
    if (first !== undefined && now !== first) changed.push(id);
  }
  return changed;
}

/** 工具代码自己怎么写一个抛出来的值（错误的 message，否则 String()）。课里的 describeError 另有讲究，这里不借用它。 */
export const describeError = (error: unknown): string => (error instanceof Error ? error.message : String(error));
