// 性质测试（fast-check）：recordToolCalls 是手写的迭代器（D41），任意事件流、任意读法下都和 for await 写的转发一样。
import fc from "fast-check";
import { it } from "vitest";
import { fastExpect } from "../support/fast-expect.ts";
import { type Call, type Event, type LessonModule, describeError } from "../../tooling/lesson.ts";
import { forLessonsFrom } from "../support/for-lessons.ts";
import { params, str } from "./common.ts";

// ── recordToolCalls 是手写的迭代器（s04 起，D41）：和 for await 写的转发行为一样 ─────────
// 对照的就是它原来的写法。provider 的流换成一个会记账的手写流：它交出的东西（合法事件、坏事件、抛错）、
// 有没有 return、return 会不会出错都随机；读的一方要么是 collectAssistantMessage，要么一步步读、读几步就收手。
// 两边转交的事件、记下的调用、最后的结果或错误、流被 next/return 了几次、按什么顺序，都必须一样。
type Recorder = (events: AsyncIterable<Event>, calls: Call[]) => AsyncGenerator<Event>;
type WithRecorder = LessonModule & { recordToolCalls: Recorder; parseProviderEvent(raw: unknown): Event };

/** recordToolCalls 原来的写法：async function* 加 for await。 */
function forAwaitRecorder(parse: (raw: unknown) => Event): Recorder {
  return async function* (events, calls) {
    for await (const raw of events) {
      const event = parse(raw);
      if (event.type === "tool_call") calls.push(event.call);
      yield event;
    }
  };
}

const BROKE = Symbol("source throws here");
type SourceItem = unknown;
const sourceItemArb: fc.Arbitrary<SourceItem> = fc.oneof(
  fc.constant<SourceItem>({ type: "message_start" }),
  str.map((t): SourceItem => ({ type: "text_delta", text: t })),
  fc.constantFrom<SourceItem>({ type: "message_end", stopReason: "stop" }, { type: "message_end", stopReason: "toolUse" }, { type: "message_end", stopReason: "length" }),
  fc.record({ id: str, name: fc.constantFrom("echo", "nope") }).map((c): SourceItem => ({ type: "tool_call", call: { ...c, input: { text: "x" } } })),
  fc.constantFrom<SourceItem>(null, "text", { type: "unknown" }, { type: "text_delta", text: 42 }, { type: "tool_call" }),
  fc.constant<SourceItem>(BROKE),
);
type Ending = "return works" | "no return" | "return throws" | "return rejects";

/** 一条会记账的事件流：log 里按顺序记着 next、return。 */
function accountedSource(items: SourceItem[], ending: Ending): { events: AsyncIterable<Event>; log: string[] } {
  const log: string[] = [];
  let i = 0;
  const iterator: AsyncIterator<Event> = {
    async next() {
      log.push("next");
      if (i >= items.length) return { done: true, value: undefined };
      const item = items[i++];
      if (item === BROKE) throw new Error("source broke");
      return { done: false, value: item as Event };
    },
  };
  if (ending !== "no return") {
    iterator.return = (): Promise<IteratorResult<Event>> => {
      log.push("return");
      if (ending === "return throws") throw new Error("return threw");
      if (ending === "return rejects") return Promise.reject(new Error("return rejected"));
      return Promise.resolve({ done: true, value: undefined });
    };
  }
  return { events: { [Symbol.asyncIterator]: () => iterator }, log };
}

/** 按一种读法读完，交出能比较的账。 */
async function readThrough(record: Recorder, items: SourceItem[], ending: Ending, reader: "collect" | number, collect: LessonModule["collectAssistantMessage"]): Promise<unknown> {
  const { events, log } = accountedSource(items, ending);
  const calls: Call[] = [];
  const seen: unknown[] = [];
  let outcome: unknown;
  const recorder = record(events, calls);
  if (reader === "collect") {
    outcome = await collect(recorder);
  } else {
    // 一步步读：读到头或出错就停；读满 reader 步还没完，就像 for await 提前退出那样 return 一次
    let finished = false;
    try {
      for (let k = 0; k < reader && !finished; k++) {
        const step = await recorder.next();
        seen.push(step);
        finished = step.done === true;
      }
      if (!finished) outcome = { returned: await recorder.return(undefined) };
    } catch (error) {
      outcome = { threw: describeError(error) };
    }
  }
  return { outcome, seen, calls, log };
}

forLessonsFrom("toolLoop", (_id, load) => {
  it("recordToolCalls（D41）：任意事件流、任意读法，转交的事件、记下的调用、结果和关流的时机都和 for await 写的一样", async () => {
    const mod = (await load()) as WithRecorder;
    const reference = forAwaitRecorder(mod.parseProviderEvent);
    await fc.assert(
      fc.asyncProperty(
        fc.array(sourceItemArb, { maxLength: 8 }),
        fc.constantFrom<Ending>("return works", "no return", "return throws", "return rejects"),
        fc.oneof(fc.constant<"collect">("collect"), fc.integer({ min: 1, max: 9 })),
        async (items, ending, reader) => {
          const ours = await readThrough(mod.recordToolCalls, items, ending, reader, mod.collectAssistantMessage);
          const theirs = await readThrough(reference, items, ending, reader, mod.collectAssistantMessage);
          fastExpect(ours).toEqual(theirs);
        },
      ),
      params,
    );
  });

  it("recordToolCalls（D41）：坏事件、提前收手都会关掉 provider 的流（真的生成器，它的 finally 跑了）", async () => {
    const mod = (await load()) as WithRecorder;
    for (const [what, items] of [
      ["坏事件", [{ type: "message_start" }, { type: "nope" }, { type: "message_end", stopReason: "stop" }]],
      ["message_end 之后还有事件", [{ type: "message_start" }, { type: "message_end", stopReason: "stop" }, { type: "text_delta", text: "late" }]],
    ] as const) {
      let closed = false;
      async function* stream(): AsyncGenerator<Event> {
        try {
          for (const item of items) yield item as Event;
        } finally {
          closed = true;
        }
      }
      await mod.collectAssistantMessage(mod.recordToolCalls(stream(), []));
      fastExpect(closed, what).toBe(true);
    }
  });
});
