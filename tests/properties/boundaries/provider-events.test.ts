// 性质测试（fast-check），R4 每道边界的第 2 类：provider 的事件流是不可信的输入（s03 起）。
// fast-check 随便编整类的不可信输入，看循环守不守得住承诺；失败时把反例缩到最小再打印（Counterexample、seed/path）。共同的断言：
// runOneTurn 一定 resolve、历史完好（tests/support/hostile.ts 的 expectSoundHistory），之后再跑一轮普通对话照样成功（../common.ts 的 ordinaryTurnAfter）。
import fc from "fast-check";
import { it } from "vitest";
import { fastExpect } from "../../support/fast-expect.ts";
import { echoTool, makeAgent, scriptedProvider } from "../../../tooling/assemble-agent.ts";
import { has } from "../../../tooling/features.ts";
import type { Event, ProviderLike } from "../../../tooling/lesson.ts";
import { text } from "../../../tooling/screenplay.ts";
import { forLessonsFrom } from "../../support/for-lessons.ts";
import { anyData, expectSoundHistory, makeQuietly, nameArb, PROTOTYPE_KEYS, returnedArb } from "../../support/hostile.ts";
import { BOUNDARY_RUNS, okProvider, ordinaryTurnAfter, str, thenable } from "../common.ts";

// 规则（D26）：每个事件先校验形状。不是四种形状之一的（不认识的 type、text 不是字符串、stopReason 不在这一课的
// StopReason 里、tool_call 缺 id/name、null、字符串……），这条回答就以出错收尾：已收到的文字 + 一行
// "error: invalid event from provider: <收到的东西>"；读一下就抛错的事件同样以出错收尾。顺序不对的合法事件照旧容忍。
type GenEvent = { label: string; make: () => unknown; kind: "valid" | "invalid" | "throws"; text?: string; stop?: string; call?: { id: string; text: string } };
const genEvent = (label: string, make: () => unknown, kind: GenEvent["kind"], extra: Partial<GenEvent> = {}): GenEvent =>
  ({ label, make, kind, ...extra, [fc.toStringMethod]: () => `${kind} ${label}` }) as GenEvent;

function eventArb(id: string): fc.Arbitrary<GenEvent> {
  const legal = has(id, "toolLoop") ? ["stop", "toolUse", "error"] : ["stop", "error"];
  const types = has(id, "toolLoop") ? ["message_start", "text_delta", "message_end", "tool_call"] : ["message_start", "text_delta", "message_end"];
  const nullProtoOf = (o: Record<string, unknown>): object => Object.assign(Object.create(null) as object, o);
  const notString = anyData.filter((h) => typeof makeQuietly(h) !== "string");
  const valid = fc.oneof(
    fc.constant(genEvent("message_start", () => ({ type: "message_start" }), "valid")),
    str.map((t) => genEvent(`text_delta ${JSON.stringify(t)}`, () => ({ type: "text_delta", text: t }), "valid", { text: t })),
    str.map((t) => genEvent(`null-prototype text_delta ${JSON.stringify(t)}`, () => nullProtoOf({ type: "text_delta", text: t }), "valid", { text: t })),
    str.map((t) => genEvent(`text_delta with extra keys`, () => ({ type: "text_delta", text: t, index: 3, extra: { x: 1 } }), "valid", { text: t })),
    ...(has(id, "toolLoop") ? [fc.tuple(fc.nat(999), str).map(([k, t]) => genEvent(`tool_call echo(${JSON.stringify(t)})`, () => ({ type: "tool_call", call: { id: `t${k}`, name: "echo", input: { text: t } } }), "valid", { call: { id: `t${k}`, text: t } }))] : []),
  );
  const end = fc.constantFrom(...legal).map((stop) => genEvent(`message_end ${stop}`, () => ({ type: "message_end", stopReason: stop }), "valid", { stop }));
  const badStop = fc
    .oneof(fc.constantFrom("length", "aborted", "pending", "toolUse", "Stop", "", ...PROTOTYPE_KEYS), fc.string({ maxLength: 8 }))
    .filter((s) => !legal.includes(s));
  const invalid: fc.Arbitrary<GenEvent> = fc.oneof(
    fc.constantFrom(
      genEvent("null", () => null, "invalid"),
      genEvent("undefined", () => undefined, "invalid"),
      genEvent("42", () => 42, "invalid"),
      genEvent('"message_end"', () => "message_end", "invalid"),
      genEvent("[]", () => [], "invalid"),
      genEvent("an array that carries type and text", () => Object.assign([], { type: "text_delta", text: "x" }), "invalid"),
      genEvent("{}", () => ({}), "invalid"),
      genEvent("text_delta without text", () => ({ type: "text_delta" }), "invalid"),
      genEvent("message_end without stopReason", () => ({ type: "message_end" }), "invalid"),
      genEvent("message_end with stopReason undefined", () => ({ type: "message_end", stopReason: undefined }), "invalid"),
      genEvent("tool_call without call", () => ({ type: "tool_call" }), "invalid"),
      genEvent("tool_call with call null", () => ({ type: "tool_call", call: null }), "invalid"),
      genEvent("tool_call whose id is a number", () => ({ type: "tool_call", call: { id: 7, name: "echo", input: {} } }), "invalid"),
      genEvent("tool_call without a name", () => ({ type: "tool_call", call: { id: "t", input: {} } }), "invalid"),
      genEvent("tool_call whose call is a string", () => ({ type: "tool_call", call: "echo" }), "invalid"),
    ),
    badStop.map((stop) => genEvent(`message_end ${JSON.stringify(stop)}`, () => ({ type: "message_end", stopReason: stop }), "invalid")),
    notString.map((h) => genEvent(`text_delta with text ${h.label}`, () => ({ type: "text_delta", text: h.make() }), "invalid")),
    notString.map((h) => genEvent(`message_end with stopReason ${h.label}`, () => ({ type: "message_end", stopReason: h.make() }), "invalid")),
    nameArb.filter((t) => !types.includes(t)).map((t) => genEvent(`unknown type ${JSON.stringify(t)}`, () => ({ type: t, text: "x" }), "invalid")),
    anyData.filter((h) => {
      const v = makeQuietly(h);
      return typeof v !== "object" || v === null || Array.isArray(v) || !types.includes(String((v as { type?: unknown }).type));
    }).map((h) => genEvent(h.label, h.make, "invalid")),
  );
  const throwing = fc.constantFrom(
    genEvent("revoked Proxy", () => {
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      return proxy;
    }, "throws"),
    genEvent("type getter throws", () => Object.defineProperty({}, "type", { get: () => { throw new Error("type getter"); }, enumerable: true }), "throws"),
    genEvent("text getter throws", () => Object.defineProperty({ type: "text_delta" }, "text", { get: () => { throw new Error("text getter"); }, enumerable: true }), "throws"),
  );
  return fc.oneof({ weight: 6, arbitrary: valid }, { weight: 2, arbitrary: end }, { weight: 3, arbitrary: invalid }, { weight: 1, arbitrary: throwing });
}

/** 一串事件：完全随机的，或者一条像样的回答（文字、s04 起带几个调用、以合法的 stopReason 收尾），可能在随便哪个位置混进一个坏事件。 */
function eventsArb(id: string): fc.Arbitrary<GenEvent[]> {
  const any = eventArb(id);
  const bad = any.filter((e) => e.kind !== "valid");
  const delta = str.map((t) => genEvent(`text_delta ${JSON.stringify(t)}`, () => ({ type: "text_delta", text: t }), "valid", { text: t }));
  const callEvent = (k: number, t: string): GenEvent =>
    genEvent(`tool_call echo(${JSON.stringify(t)})`, () => ({ type: "tool_call", call: { id: `t${k}`, name: "echo", input: { text: t } } }), "valid", { call: { id: `t${k}`, text: t } });
  const answer = fc
    .tuple(
      fc.array(delta, { maxLength: 3 }),
      has(id, "toolLoop") ? fc.array(str, { maxLength: 3 }) : fc.constant([] as string[]),
      fc.constantFrom(...(has(id, "toolLoop") ? ["toolUse", "toolUse", "stop", "error"] : ["stop", "error"])),
      fc.option(fc.tuple(bad, fc.nat()), { nil: undefined }),
      fc.array(any, { maxLength: 2 }),
    )
    .map(([deltas, calls, stop, corrupt, after]) => {
      const seq: GenEvent[] = [
        genEvent("message_start", () => ({ type: "message_start" }), "valid"),
        ...deltas,
        ...calls.map((t, k) => callEvent(k, t)),
        genEvent(`message_end ${stop}`, () => ({ type: "message_end", stopReason: stop }), "valid", { stop }),
        ...after,
      ];
      if (corrupt !== undefined) seq.splice(corrupt[1] % seq.length, 0, corrupt[0]);
      return seq;
    });
  return fc.oneof(fc.array(any, { maxLength: 8 }), answer);
}

forLessonsFrom("stream", (id, load) => {
  it("R4 第 2 类：任意事件序列（含坏事件、乱序、读一下就抛错的事件）：坏事件让这条回答以出错收尾并写明收到了什么；只有合法的 toolUse 回答里的调用才执行", async () => {
    const mod = await load();
    await fc.assert(
      fc.asyncProperty(eventsArb(id), fc.boolean(), async (events, tamper) => {
        // 调用 id 在一次回答里不重复（重复的 id 是另一回事，这里不考）
        const seq = events.filter((e, i) => e.call === undefined || events.findIndex((o) => o.call?.id === e.call?.id) === i);
        const { provider } = scriptedProvider(id, () => text("unused"));
        let k = 0;
        provider.stream = async function* () {
          const mine = k++;
          if (mine === 0) {
            for (const e of seq) {
              const event = e.make() as Event;
              yield event;
              // 交出去以后再改它手上那个调用的 id：core 记下的必须是交出那一刻的样子
              if (tamper && e.call !== undefined && event.type === "tool_call") event.call.id = "tampered";
            }
          }
          else yield* [{ type: "message_start" }, { type: "text_delta", text: "done" }, { type: "message_end", stopReason: "stop" }] as Event[];
        };
        const { agent, messages } = makeAgent(id, mod, { provider, tools: has(id, "toolLoop") ? [echoTool("echo").tool] : [] });
        const reply = await mod.runOneTurn(agent, "go");

        // 预期：照剧本走一遍，不看课的代码
        let received = "";
        const calls: { id: string; text: string }[] = [];
        let first: { content: string | RegExp; stopReason: string } | undefined;
        for (const e of seq) {
          const lead = received === "" ? "" : `${received}\n`;
          if (e.kind === "invalid") first = { content: new RegExp(`^${escape(lead)}error: invalid event from provider: `), stopReason: "error" };
          else if (e.kind === "throws") first = { content: new RegExp(`^${escape(lead)}error: `), stopReason: "error" };
          else if (e.text !== undefined) received += e.text;
          else if (e.call !== undefined) calls.push(e.call);
          else if (e.stop !== undefined) first = { content: received, stopReason: e.stop };
          if (first !== undefined) break;
        }
        first ??= { content: `${received === "" ? "" : `${received}\n`}error: stream ended without message_end`, stopReason: "error" };
        const stored = messages();
        fastExpect(stored[1]?.role).toBe("assistant");
        fastExpect(stored[1]?.stopReason).toBe(first.stopReason);
        if (typeof first.content === "string") fastExpect(stored[1]?.content).toBe(first.content);
        else fastExpect(stored[1]?.content).toMatch(first.content);
        const ran = first.stopReason === "toolUse" && calls.length > 0;
        fastExpect(stored.filter((m) => m.role === "toolResult").map((m) => [m.toolCallId, m.content]), "results for exactly the executed calls").toEqual(
          ran ? calls.map((c) => [c.id, `echo:${c.text}`]) : [],
        );
        fastExpect(reply).toEqual(stored.at(-1));
        if (ran) fastExpect(reply).toEqual({ role: "assistant", content: "done", stopReason: "stop" });
        expectSoundHistory(id, stored);
        await ordinaryTurnAfter(id, mod, agent, messages);
      }),
      BOUNDARY_RUNS,
    );
  });

  it("R4 第 2 类：provider 不像 provider（没有 stream、stream 不是函数、交回的不是事件流）：这一轮以出错收尾，之后照常", async () => {
    const mod = await load();
    await fc.assert(
      fc.asyncProperty(returnedArb, fc.constantFrom("provider itself", "stream property", "stream() result"), async (h, where) => {
        // 放在 provider 位置上的 Promise（或 stream() 交回的 Promise）是调用方自己丢下的：core 不等它，也不替它接 reject
        // （EVOLUTION.md §8），所以这里由测试自己接住
        const made = (): unknown => {
          const value = h.make();
          if (thenable(value)) Promise.resolve(value).catch(() => {});
          return value;
        };
        const { agent, messages } = makeAgent(id, mod, { provider: okProvider(id) });
        if (where === "provider itself") agent.provider = made() as ProviderLike;
        else if (where === "stream property") agent.provider = { stream: made() as ProviderLike["stream"] };
        else agent.provider = { stream: () => made() as AsyncGenerator<Event> };
        const reply = await mod.runOneTurn(agent, "go");
        fastExpect(reply.stopReason, "a provider that is not a provider ends the turn in an error").toBe("error");
        fastExpect(reply.content).toMatch(/^error: /);
        expectSoundHistory(id, messages());
        await ordinaryTurnAfter(id, mod, agent, messages);
      }),
      BOUNDARY_RUNS,
    );
  });
});

/** 正则里按字面匹配一段文字。 */
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
