// 场景 → 轨迹：把一个场景放到某一课上跑一遍。每一步怎么跑，查 STEP_HANDLERS 这张表（一种步骤一行）；
// 跑完把存下的消息、provider 收到的输入、Output 写出的行，和有扩展的课的运行时事件、扩展错误，收成一条轨迹。
// 黄金文件 tests/golden/<场景>.json 是引入这个场景的那一课跑出的轨迹（npm run gen:golden 重写）。
import { makeAgent, pushMessage, recordingProvider, scriptedProvider } from "../assemble-agent.ts";
import { lessonNumber } from "../course.ts";
import { has } from "../features.ts";
import { type Input, type LessonModule, type Msg, type ProviderLike, type RuntimeEventLike, type TestAgent, type Tree, describeError } from "../lesson.ts";
import { plainMessage } from "../screenplay.ts";
import { type Ctx, buildExtension, buildHooks, resolveTool, scriptFor } from "./parts.ts";
import { type Scenario, type ScenarioStep, type Trace, type TraceRequest, hasField } from "./shape.ts";

/** 跑一个场景时手边的东西：这一课、它的模块、拼好的 agent、记下的请求和每一步的说明。 */
type Run = {
  id: string;
  mod: LessonModule;
  agent: TestAgent;
  ctx: Ctx;
  /** provider（和换模型时登记的 provider）每次收到的输入。 */
  inputs: Input[];
  /** 每一步一行：做了什么，得到什么。 */
  steps: string[];
  /** Output 写出的每一行。 */
  lines: string[];
  /** 有扩展的课：运行时广播的每个事件。 */
  events: RuntimeEventLike[];
};

const replyLine = (m: Msg): string => `${m.role}[${m.stopReason ?? "-"}]: ${m.content}`;
const requestLine = (m: Msg): string => `${m.role}${m.toolCallId !== undefined ? `(${m.toolCallId})` : ""}: ${m.content}`;

/** 做一件可能抛错的事：成功记 label，抛错记 `label → error: …`，场景照常往下走。 */
function attempt(run: Run, label: string, action: () => void): void {
  try {
    action();
    run.steps.push(label);
  } catch (error) {
    run.steps.push(`${label} → error: ${describeError(error)}`);
  }
}

function sessionTree(run: Run): Tree {
  const m = run.agent.state.messages;
  if (Array.isArray(m)) throw new Error(`${run.id} has no session tree`);
  return m;
}

/** 换模型；给了剧本就登记一个这个模型专用的 provider，它收到的输入也记进同一份 requests。 */
function switchModel(run: Run, step: Extract<ScenarioStep, { model: string }>): void {
  if (step.provider !== undefined) {
    const stream = scriptedProvider(run.id, scriptFor(step.provider)).provider.stream;
    if (stream === undefined) throw new Error(`${run.id}: a provider per model needs the stream API (s03 on)`);
    const { inputs } = run;
    const provider: ProviderLike = {
      async *stream(input: Input) {
        inputs.push(structuredClone(input));
        yield* stream(input);
      },
    };
    run.agent.providers = { ...run.agent.providers, [step.model]: provider };
  }
  run.agent.state.model = step.model;
  run.steps.push(`model ${step.model}`);
}

function install(run: Run, step: Extract<ScenarioStep, { install: unknown }>): void {
  const pkg = step.install === "demo" ? run.mod.createDemoPackage() : structuredClone(step.install);
  const name = typeof pkg.manifest === "object" && pkg.manifest !== null && "name" in pkg.manifest ? String(pkg.manifest.name) : "?";
  attempt(run, `install ${name}`, () => run.mod.installPackage(run.agent, run.mod.loadPackage(pkg)));
}

type StepKind = "turn" | "loop" | "moveTo" | "command" | "register" | "model" | "use" | "install";
type Handler<K extends StepKind> = (run: Run, step: Extract<ScenarioStep, Record<K, unknown>>) => void | Promise<void>;

/** 每一种步骤怎么跑。 */
const STEP_HANDLERS: { [K in StepKind]: Handler<K> } = {
  async turn(run, step) {
    run.steps.push(`turn ${JSON.stringify(step.turn)} → ${replyLine(await run.mod.runOneTurn(run.agent, step.turn))}`);
  },
  async loop(run, step) {
    pushMessage(run.agent, { role: "user", content: step.loop });
    const reply = await run.mod.runEventedToolLoop(run.agent, step.maxTurns);
    run.steps.push(`loop ${JSON.stringify(step.loop)} (maxTurns ${step.maxTurns}) → ${replyLine(reply)}`);
  },
  moveTo: (run, step) => attempt(run, `moveTo ${step.moveTo}`, () => sessionTree(run).moveTo(step.moveTo)),
  command: (run, step) => void run.steps.push(`/${step.command} → ${run.agent.runtime?.runCommand(step.command)}`),
  register(run, step) {
    const name = typeof step.register === "string" ? step.register : step.register.name;
    attempt(run, `register ${name}`, () => run.agent.registry?.register(resolveTool(run.ctx, step.register)));
  },
  model: switchModel,
  use(run, step) {
    const name = typeof step.use === "string" ? step.use : step.use.name;
    attempt(run, `use ${name}`, () => run.agent.runtime?.use(buildExtension(run.ctx, step.use)));
  },
  install,
};

const STEP_KINDS = Object.keys(STEP_HANDLERS) as StepKind[];

function runStep(run: Run, step: ScenarioStep): void | Promise<void> {
  const kind = STEP_KINDS.find((k) => k in step);
  if (kind === undefined) throw new Error(`unknown scenario step ${JSON.stringify(step)}`);
  return (STEP_HANDLERS[kind] as Handler<StepKind>)(run, step as never);
}

/** 按场景拼 agent：provider、工具、钩子、资料、信任、运行模式；有扩展的课再挂一个记下运行时事件的监听。 */
function setUp(id: string, mod: LessonModule, scenario: Scenario): Run {
  let agent: TestAgent | undefined;
  const ctx: Ctx = {
    id,
    mod,
    agent: () => {
      if (agent === undefined) throw new Error("agent not built yet");
      return agent;
    },
  };
  const { provider, inputs } = scenario.provider === "fake" ? recordingProvider(mod.createFakeProvider()) : scriptedProvider(id, scriptFor(scenario.provider));
  const built = makeAgent(id, mod, {
    provider,
    tools: (scenario.tools ?? []).map((t) => resolveTool(ctx, t)),
    hooks: scenario.hooks === undefined ? undefined : buildHooks(ctx, scenario.hooks),
    resources: scenario.resources === "demo" ? mod.createDemoResources() : scenario.resources,
    trust: scenario.trust,
  });
  agent = built.agent;
  if (scenario.mode === "json") agent.mode = new mod.JsonMode(agent.output);
  const events: RuntimeEventLike[] = [];
  if (hasField(id, "events")) {
    agent.runtime?.use(function traceRecorder(api) {
      api.on("message", (e) => void events.push({ ...e }));
      api.on("done", (e) => void events.push({ ...e }));
    });
  }
  return { id, mod, agent, ctx, inputs, steps: [], lines: built.lines, events };
}

/** 跑完之后的轨迹：存下的全部消息（会话树是 allEntries()）、每次请求、Output 的行，和这一课就有的字段。 */
function traceOf(run: Run, scenario: Scenario): Trace {
  const { id, agent } = run;
  const stored = agent.state.messages;
  const trace: Trace = {
    steps: run.steps,
    messages: (Array.isArray(stored) ? stored : stored.allEntries()).map(plainMessage),
    requests: run.inputs.map((input) => {
      const req: TraceRequest = { messages: input.messages.map(requestLine) };
      if (hasField(id, "requests[].tools")) req.tools = (input.tools ?? []).map((t) => t.name);
      if (hasField(id, "requests[].systemPrompt")) req.systemPrompt = input.systemPrompt;
      return req;
    }),
    output: run.lines,
  };
  if (scenario.steps.some((st) => "moveTo" in st)) {
    trace.path = sessionTree(run).currentPath().map(plainMessage);
    trace.tree = run.mod.renderTree(sessionTree(run).allEntries());
  }
  if (hasField(id, "events")) trace.events = run.events;
  if (hasField(id, "errors")) trace.errors = [...(agent.runtime?.errors ?? [])];
  return trace;
}

/** 在 lesson（课号 id、已导入的模块 mod）上跑一个场景，得到它的轨迹。课里的 DEMO_FILES 跑完原样复原。 */
export async function runScenario(id: string, mod: LessonModule, scenario: Scenario): Promise<Trace> {
  if (lessonNumber(id) < lessonNumber(scenario.since)) throw new Error(`${scenario.id} is introduced in ${scenario.since}; cannot run on ${id}`);
  const savedFiles = has(id, "tools") ? { ...mod.DEMO_FILES } : undefined;
  try {
    const run = setUp(id, mod, scenario);
    for (const step of scenario.steps) await runStep(run, step);
    return traceOf(run, scenario);
  } finally {
    if (savedFiles !== undefined) {
      for (const key of Object.keys(mod.DEMO_FILES)) delete mod.DEMO_FILES[key];
      Object.assign(mod.DEMO_FILES, savedFiles);
    }
  }
}
