// 规模测量用的工作负载，tests/bench/scale.bench.ts（vitest bench）和 scripts/bench-table.ts（打印逐规模的表）共用。
// 每个工作负载返回一个「跑一次」的函数；准备工作（导入课、拼 agent 的零件）不计时。
// 和真实 Pi 对照的三种工作量（文字增量、一次回答里很多调用、很多次各一个调用）也在这里，Pi 那一侧在 fidelity/pi-bench.ts，
// 两边照同一份剧本（SCRIPT）说话、用同样干活的 echo 工具。
import type { Event, LessonModule, Msg, ProviderLike, ToolLike } from "../lesson.ts";
import { echoTool, makeAgent, pushMessage } from "../assemble-agent.ts";

/** 两边共用的剧本：用户说什么、模型每段文字、工具名、第 i 个调用的 id 和参数、收尾的一句话。 */
export const SCRIPT = {
  prompt: "go",
  delta: "token ",
  tool: "echo",
  callId: (i: number): string => `c${i}`,
  arg: (i: number): string => `x${i}`,
  done: "done",
  /** echo 工具的结果：两边的工具做同样的事。 */
  echo: (text: string): string => `echo:${text}`,
} as const;

/** 往一棵空树上 append n 条消息，再取一次 currentPath 和 allEntries。 */
export function treeAppendAndPath(mod: LessonModule, n: number): () => number {
  const msgs: Msg[] = Array.from({ length: n }, (_, i) =>
    i % 3 === 0 ? { role: "user", content: `q${i}` } : i % 3 === 1 ? { role: "assistant", content: `a${i}`, stopReason: "toolUse" } : { role: "toolResult", toolCallId: `c${i}`, content: `r${i}` },
  );
  return () => {
    const tree = new mod.SessionTree();
    for (const m of msgs) tree.append(m);
    return tree.currentPath().length + tree.allEntries().length;
  };
}

/** collectAssistantMessage 收 n 个 text_delta。 */
export function collectDeltas(mod: LessonModule, n: number): () => Promise<number> {
  return async () => {
    const reply = await mod.collectAssistantMessage(
      (async function* (): AsyncGenerator<Event> {
        yield { type: "message_start" };
        for (let i = 0; i < n; i++) yield { type: "text_delta", text: SCRIPT.delta };
        yield { type: "message_end", stopReason: "stop" };
      })(),
    );
    return reply.content.length;
  };
}

/**
 * 不记录输入的剧本 provider（scriptedProvider 会深拷贝每次输入，那份拷贝本身就随历史增长，会污染测量）。
 * 一次回答的事件先全部备好，交出一个就放掉一个——和 Pi 一侧的事件队列一样，两边的堆里留着的东西一样多。
 */
function leanProvider(respond: (k: number) => Event[]): ProviderLike {
  let k = 0;
  return {
    stream(): AsyncGenerator<Event> {
      const pending = [...respond(k++)].reverse();
      return (async function* () {
        for (let event = pending.pop(); event !== undefined; event = pending.pop()) yield event;
      })();
    },
  };
}

const callEvent = (i: number): Event => ({ type: "tool_call", call: { id: SCRIPT.callId(i), name: SCRIPT.tool, input: { text: SCRIPT.arg(i) } } });
const done: Event[] = [{ type: "message_start" }, { type: "text_delta", text: SCRIPT.done }, { type: "message_end", stopReason: "stop" }];

/** 一轮：一次回答里要 n 个工具调用，执行完再答一句。 */
export function turnWithCallsInOneResponse(id: string, mod: LessonModule, n: number): () => Promise<number> {
  return async () => {
    const provider = leanProvider((k) => (k === 0 ? [{ type: "message_start" }, ...Array.from({ length: n }, (_, i) => callEvent(i)), { type: "message_end", stopReason: "toolUse" }] : done));
    const { agent, messages } = makeAgent(id, mod, { provider, tools: [echoTool("echo").tool], mode: { render: () => {} } });
    await mod.runOneTurn(agent, "go");
    return messages().length;
  };
}

/** 一轮：模型每次回答只要 1 个调用，一共要 n 次（maxTurns 提到 n + 1）。 */
export function turnWithOneCallPerResponse(id: string, mod: LessonModule, n: number): () => Promise<number> {
  return async () => {
    const provider = leanProvider((k) => (k < n ? [{ type: "message_start" }, callEvent(k), { type: "message_end", stopReason: "toolUse" }] : done));
    const { agent, messages } = makeAgent(id, mod, { provider, tools: [echoTool("echo").tool], mode: { render: () => {} } });
    pushMessage(agent, { role: "user", content: "go" });
    await mod.runEventedToolLoop(agent, n + 1);
    return messages().length;
  };
}

// ── 和真实 Pi 对照 ─────────────────────────────────────────

/**
 * 一轮跑完后能查的东西（都不计时）：transcript 是这一轮存下的消息，每条写成「角色:文字」，两边逐条相同，
 * 才说明做的是同一件事；events 是订阅者收到了几个事件（mini：交给运行模式的 RuntimeEvent；Pi：emit 的 AgentEvent）。
 */
export type ComparedOutcome = { transcript(): string[]; events: number };

/** 对照用的一次运行：建一个新 agent（一个工具）、跑一轮。 */
export type ComparedRun = () => Promise<ComparedOutcome>;

/** 三种工作量。unit 是「每单位耗时」的单位：一个文字增量、一个调用、一次回答。 */
export type WorkloadKind = "deltas" | "callsInOneResponse" | "oneCallPerResponse";

/** 一侧（mini 或 Pi）怎么跑三种工作量，每种给定规模 n。 */
export type Side = Record<WorkloadKind, (n: number) => ComparedRun>;

/** 不记录调用的 echo 工具：和 Pi 一侧的 execute 做一样的事。 */
const leanEcho = (): ToolLike => ({
  spec: { name: SCRIPT.tool, description: `${SCRIPT.tool} tool`, input: { text: "text" } },
  handler: (input) => SCRIPT.echo(input.text),
});

/** mini 一侧：把 agent 拼起来跑一轮；运行模式只数一数事件（Pi 一侧的订阅者也只数数）。 */
export function miniSide(id: string, mod: LessonModule): Side {
  const run =
    (respond: (k: number) => Event[], turn: (agent: ReturnType<typeof makeAgent>["agent"]) => Promise<unknown>): ComparedRun =>
    async () => {
      let events = 0;
      const mode = { render: (all: unknown[]) => void (events += all.length) };
      const { agent, messages } = makeAgent(id, mod, { provider: leanProvider(respond), tools: [leanEcho()], mode });
      await turn(agent);
      return { transcript: () => messages().map((m) => `${m.role}:${m.content}`), events };
    };
  const viaOneTurn = (agent: ReturnType<typeof makeAgent>["agent"]): Promise<unknown> => mod.runOneTurn(agent, SCRIPT.prompt);
  return {
    deltas: (n) =>
      run(
        () => [{ type: "message_start" }, ...Array.from({ length: n }, (): Event => ({ type: "text_delta", text: SCRIPT.delta })), { type: "message_end", stopReason: "stop" }],
        viaOneTurn,
      ),
    callsInOneResponse: (n) =>
      run((k) => (k === 0 ? [{ type: "message_start" }, ...Array.from({ length: n }, (_, i) => callEvent(i)), { type: "message_end", stopReason: "toolUse" }] : done), viaOneTurn),
    // runOneTurn 最多问 DEFAULT_MAX_TURNS 次；n 次调用要 n + 1 次回答，所以直接调工具循环并放宽上限。
    oneCallPerResponse: (n) =>
      run(
        (k) => (k < n ? [{ type: "message_start" }, callEvent(k), { type: "message_end", stopReason: "toolUse" }] : done),
        (agent) => {
          pushMessage(agent, { role: "user", content: SCRIPT.prompt });
          return mod.runEventedToolLoop(agent, n + 1);
        },
      ),
  };
}
