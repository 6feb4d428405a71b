// 规模测量用的工作负载，tests/bench/scale.bench.ts（vitest bench）和 scripts/bench-table.ts（打印逐规模的表）共用。
// 每个工作负载返回一个「跑一次」的函数；准备工作（导入课、拼 agent 的零件）不计时。
import { type Event, type LessonModule, type Msg, type ProviderLike, echoTool, makeAgent, pushMessage } from "../support/lessons.ts";

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
        for (let i = 0; i < n; i++) yield { type: "text_delta", text: "token " };
        yield { type: "message_end", stopReason: "stop" };
      })(),
    );
    return reply.content.length;
  };
}

/** 不记录输入的剧本 provider（scriptedProvider 会深拷贝每次输入，那份拷贝本身就随历史增长，会污染测量）。 */
function leanProvider(respond: (k: number) => Event[]): ProviderLike {
  let k = 0;
  return {
    stream(): AsyncGenerator<Event> {
      const events = respond(k++);
      return (async function* () {
        yield* events;
      })();
    },
  };
}

const callEvent = (i: number): Event => ({ type: "tool_call", call: { id: `c${i}`, name: "echo", input: { text: `x${i}` } } });
const done: Event[] = [{ type: "message_start" }, { type: "text_delta", text: "done" }, { type: "message_end", stopReason: "stop" }];

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
