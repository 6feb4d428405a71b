// 性质测试（fast-check）：recordToolCalls（s04 起）原样转交事件流、只记下校验过的 tool_call，停下来时关掉 provider 的流。
import fc from "fast-check";
import { it } from "vitest";
import { fastExpect } from "../support/fast-expect.ts";
import type { Call, Event, LessonModule } from "../../tooling/lesson.ts";
import { forLessonsFrom } from "../support/for-lessons.ts";
import { params, str } from "./common.ts";

// ── recordToolCalls 交给 collectAssistantMessage 读：记下什么、读到哪、关不关流 ─────────
// provider 的流换成一个会记账的手写流，交出的东西随机：合法事件、坏事件、抛错；有没有 return 也随机。
// 对照的是一个照规则直接算出来的账（oracle）：读到第一个 message_end、第一个坏事件或流抛错为止；
// 这之前的每个 tool_call 都按顺序记下；停在 message_end 或坏事件上时，流被 return 一次（流自己抛错时不用关）。
type Recorder = (events: AsyncIterable<Event>, calls: Call[]) => AsyncGenerator<Event>;
type WithRecorder = LessonModule & { recordToolCalls: Recorder };

const BROKE = Symbol("source throws here");
type Item = { value: unknown; kind: "valid" | "invalid" | "broke" };
const valid = (value: unknown): Item => ({ value, kind: "valid" });
const itemArb: fc.Arbitrary<Item> = fc.oneof(
  fc.constant(valid({ type: "message_start" })),
  str.map((t) => valid({ type: "text_delta", text: t })),
  fc.constantFrom("stop", "toolUse").map((stopReason) => valid({ type: "message_end", stopReason })),
  fc.record({ id: str, name: fc.constantFrom("echo", "nope") }).map((c) => valid({ type: "tool_call", call: { ...c, input: { text: "x" } } })),
  fc.constantFrom<unknown>(null, "text", { type: "unknown" }, { type: "text_delta", text: 42 }, { type: "tool_call" }, { type: "message_end", stopReason: "length" }).map((value): Item => ({ value, kind: "invalid" })),
  fc.constant<Item>({ value: BROKE, kind: "broke" }),
);

/** 照规则算出来的账。 */
function oracle(items: Item[]): { calls: unknown[]; nexts: number; closes: boolean; stopReason: string; text: string } {
  const calls: unknown[] = [];
  let text = "";
  for (const [k, { value, kind }] of items.entries()) {
    if (kind === "broke") return { calls, nexts: k + 1, closes: false, stopReason: "error", text };
    if (kind === "invalid") return { calls, nexts: k + 1, closes: true, stopReason: "error", text };
    const event = value as Event;
    if (event.type === "tool_call") calls.push(event.call);
    if (event.type === "text_delta") text += event.text;
    if (event.type === "message_end") return { calls, nexts: k + 1, closes: true, stopReason: event.stopReason, text };
  }
  return { calls, nexts: items.length + 1, closes: false, stopReason: "error", text };
}

/** 一条会记账的事件流：log 里按顺序记着 next、return。 */
function accountedSource(items: Item[], withReturn: boolean): { events: AsyncIterable<Event>; log: string[] } {
  const log: string[] = [];
  let i = 0;
  const iterator: AsyncIterator<Event> = {
    async next() {
      log.push("next");
      if (i >= items.length) return { done: true, value: undefined };
      const item = items[i++];
      if (item.kind === "broke") throw new Error("source broke");
      return { done: false, value: item.value as Event };
    },
  };
  if (withReturn) {
    iterator.return = async (): Promise<IteratorResult<Event>> => {
      log.push("return");
      return { done: true, value: undefined };
    };
  }
  return { events: { [Symbol.asyncIterator]: () => iterator }, log };
}

forLessonsFrom("toolLoop", (_id, load) => {
  it("recordToolCalls：任意事件流，记下的调用、读到哪、关不关流、拼出的回答都和规则算出来的一样", async () => {
    const mod = (await load()) as WithRecorder;
    await fc.assert(
      fc.asyncProperty(fc.array(itemArb, { maxLength: 8 }), fc.boolean(), async (items, withReturn) => {
        const { events, log } = accountedSource(items, withReturn);
        const calls: Call[] = [];
        const reply = await mod.collectAssistantMessage(mod.recordToolCalls(events, calls));
        const expected = oracle(items);
        fastExpect(calls).toEqual(expected.calls);
        fastExpect(log).toEqual([...Array<string>(expected.nexts).fill("next"), ...(expected.closes && withReturn ? ["return"] : [])]);
        fastExpect(reply.stopReason).toBe(expected.stopReason);
        fastExpect(reply.content.startsWith(expected.text)).toBe(true);
      }),
      params,
    );
  });

  it("recordToolCalls：坏事件、提前收手都会关掉 provider 的流（真的生成器，它的 finally 跑了）", async () => {
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
