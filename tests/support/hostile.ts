// 不可信的值：抛出来的、交回来的、当名字用的。性质测试（tests/properties/）和坏输入表（tests/bad-input/）用它们去敲每一道边界。
// 每个值都带一个标签，由 make() 现做：撤销了的 Proxy、会抛错的 getter 这类东西，fast-check 打印反例时碰一下就会炸，
// 标签让反例照样读得懂；现做也保证每次拿到的是新的（比如还没被别人 then 过的 Promise）。
import fc from "fast-check";
import { fastExpect } from "./fast-expect.ts";
import type { Msg } from "../../tooling/lesson.ts";
import { has } from "../../tooling/features.ts";

export type Hostile = { label: string; make: () => unknown };

/** fast-check 打印反例时只打标签（fc.toStringMethod），不去碰那个怪值本身。 */
export const hostile = (label: string, make: () => unknown): Hostile => ({ label, make, [fc.toStringMethod]: () => label }) as Hostile;

const revoked = (target: object): unknown => {
  const { proxy, revoke } = Proxy.revocable(target, {});
  revoke();
  return proxy;
};
const throwingGetter = (key: string): object =>
  Object.defineProperty({}, key, {
    get() {
      throw new Error(`${key} getter exploded`);
    },
    enumerable: true,
  });
const deep = (depth: number): unknown => {
  let value: unknown = "bottom";
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};
const cyclic = (): unknown => {
  const o: Record<string, unknown> = { name: "loop" };
  o.self = o;
  return o;
};
const nullProto = (fields: Record<string, unknown> = {}): object => Object.assign(Object.create(null) as object, fields);

/** 抛出来也无妨的怪值：文字都转不出来的、读一下就抛错的、类型古怪的。不含会 reject 的 Promise（见 RETURNED）。 */
export const THROWN: Hostile[] = [
  hostile("undefined", () => undefined),
  hostile("null", () => null),
  hostile("0", () => 0),
  hostile("NaN", () => Number.NaN),
  hostile('""', () => ""),
  hostile("Symbol", () => Symbol("thrown")),
  hostile("BigInt", () => 10n),
  hostile("true", () => true),
  hostile("a function", () => () => "fn"),
  hostile("null-prototype object", () => nullProto()),
  hostile("null-prototype object with a message", () => nullProto({ message: "np" })),
  hostile("object whose toString throws", () => ({
    toString() {
      throw new Error("toString exploded");
    },
  })),
  hostile("object whose Symbol.toPrimitive throws", () => ({
    [Symbol.toPrimitive]() {
      throw new Error("toPrimitive exploded");
    },
  })),
  hostile("object whose message getter throws", () => throwingGetter("message")),
  hostile("Error whose message getter throws", () =>
    Object.defineProperty(new Error("x"), "message", {
      get() {
        throw new Error("message getter exploded");
      },
    }),
  ),
  hostile("Error whose message is a null-prototype object", () => Object.assign(new Error("x"), { message: nullProto() })),
  hostile("Error whose message is a Symbol", () => Object.assign(new Error("x"), { message: Symbol("m") })),
  hostile("revoked Proxy (object)", () => revoked({})),
  hostile("revoked Proxy (function)", () => revoked(() => "x")),
  hostile("Proxy whose every trap throws", () =>
    new Proxy(
      {},
      {
        get() {
          throw new Error("get trap");
        },
        getPrototypeOf() {
          throw new Error("getPrototypeOf trap");
        },
        ownKeys() {
          throw new Error("ownKeys trap");
        },
      },
    ),
  ),
  hostile("cyclic object", cyclic),
  hostile("object nested 20,000 deep", () => deep(20_000)),
  hostile("a resolved Promise", () => Promise.resolve("late")),
  hostile("a thenable that never settles", () => ({ then() {} })),
  hostile("a thenable whose then throws", () => ({
    then() {
      throw new Error("then exploded");
    },
  })),
];

/** Promise 和 thenable，包括会 reject 的：core 不等它们，但必须接住它们的失败。 */
export const PROMISES: Hostile[] = [
  hostile("a rejecting Promise", () => Promise.reject(new Error("async failure"))),
  hostile("a Promise rejecting with a null-prototype object", () => Promise.reject(nullProto())),
  hostile("a Promise resolving to a string", () => Promise.resolve("ok later")),
  hostile("a thenable that rejects", () => ({ then: (_ok: unknown, fail: (e: unknown) => void) => fail(new Error("thenable failure")) })),
  hostile("an async function's result", () => (async () => "from async")()),
];

/** 交回来的怪值：THROWN 之外再加会 reject 的 Promise 和 thenable。 */
export const RETURNED: Hostile[] = [...THROWN, ...PROMISES];

/** 做出这个值；它若是会 reject 的 Promise，由调用的测试自己接住（只拿它当数据看、不交给 core 的时候用）。 */
export function makeQuietly(h: Hostile): unknown {
  const value = h.make();
  try {
    if (typeof (value as { then?: unknown } | null | undefined)?.then === "function") Promise.resolve(value).catch(() => {});
  } catch {
    // 读 then 就抛错的值，不是 Promise
  }
  return value;
}

/** 任意数据，包括没有原型的对象和 BigInt；打印用 fast-check 自己的 stringify。 */
export const anyData: fc.Arbitrary<Hostile> = fc
  .anything({ maxDepth: 3, maxKeys: 4, withNullPrototype: true, withBigInt: true, withBoxedValues: true, withMap: true, withSet: true })
  .map((value) => hostile(fc.stringify(value), () => value));

export const thrownArb: fc.Arbitrary<Hostile> = fc.oneof(fc.constantFrom(...THROWN), anyData);
/** Promise 单独加权：会 reject 的那几个要常出现。 */
export const returnedArb: fc.Arbitrary<Hostile> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...THROWN) },
  { weight: 2, arbitrary: fc.constantFrom(...PROMISES) },
  { weight: 2, arbitrary: anyData },
);

/** Object.prototype 上的名字，外加几个长得像的。 */
export const PROTOTYPE_KEYS = [
  "__proto__",
  "constructor",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "__defineGetter__",
  "__lookupGetter__",
  "prototype",
  "then",
];
/** 当名字用的任意字符串：原型上的名字要常出现。 */
export const nameArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 6 }) },
);

/** 让出事件循环，等 then 里挂的回调（比如被接住的 reject）都跑完。 */
export const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

// ── 历史健全：每个性质都要的那几条 ─────────────────────────
const stopReasonsOf = (id: string): string[] => (has(id, "toolLoop") ? ["stop", "toolUse", "error"] : ["stop", "error"]);

/**
 * 历史健全：每条消息的 content 是字符串；助手消息的 stopReason 是这一课的合法值；工具结果带字符串 toolCallId，
 * 且只紧跟在一条 toolUse 助手消息（或它的其他结果）后面；每一轮（从一条用户消息起）以一条助手消息收尾；
 * 整段历史能被 structuredClone（没有被什么东西毒化，下一轮的快照拍得出来）。
 */
export function expectSoundHistory(id: string, messages: Msg[]): void {
  const legal = stopReasonsOf(id);
  for (const [i, m] of messages.entries()) {
    const where = `message ${i} ${JSON.stringify(m)}`;
    fastExpect(typeof m.content, `${where}: content is a string`).toBe("string");
    fastExpect(["user", "assistant", "toolResult"], where).toContain(m.role);
    if (m.role === "assistant") fastExpect(legal, `${where}: a legal stopReason`).toContain(m.stopReason);
    if (m.role === "toolResult") {
      fastExpect(typeof m.toolCallId, `${where}: toolCallId is a string`).toBe("string");
      let k = i - 1;
      while (k >= 0 && messages[k].role === "toolResult") k--;
      fastExpect(messages[k]?.role === "assistant" && messages[k]?.stopReason === "toolUse", `${where}: follows a toolUse answer`).toBe(true);
    }
    if (m.role === "user" && i > 0) fastExpect(messages[i - 1].role, `${where}: the turn before it ended with an answer`).toBe("assistant");
  }
  if (messages.length > 0) fastExpect(messages.at(-1)?.role, "the last turn ended with an answer").toBe("assistant");
  fastExpect(() => structuredClone(messages), "history can be cloned").not.toThrow();
}
