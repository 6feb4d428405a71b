// tests/support/fast-expect.ts 的 fastExpect 是性质测试热循环里的 expect：它必须和 vitest 的 expect 查同一件事。
// 这里让 fast-check 生成任意一对值（相等的、差一点的、带 undefined 键、空位、null 原型、Map、Set、Date、成环……），
// 对每个 fastExpect 认得的断言，两边要么都过，要么都失败并且错误消息一字不差；失败的调用栈从写断言的那一行算起。
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fastExpect } from "./support/fast-expect.ts";
import { SEED } from "./properties/common.ts";

/** 跑一条断言：过了是 "pass"，失败是错误消息。 */
const outcome = (assertion: () => void): string => {
  try {
    assertion();
    return "pass";
  } catch (error) {
    return error instanceof Error ? `${error.name}: ${error.message}` : `thrown ${String(error)}`;
  }
};

const value = fc.anything({
  maxDepth: 3,
  withBoxedValues: true,
  withMap: true,
  withSet: true,
  withDate: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
  withUnicodeString: true,
});
/** 宽松相等、严格不等的原始值（0 和 -0、"1" 和 1、null 和 undefined……），放在同样的结构里比。 */
const tricky = fc.constantFrom<unknown>(0, -0, "0", "", false, null, undefined, NaN, 1, "1", true, 0n, 1n);
const trickyPair = fc.tuple(tricky, tricky, fc.constantFrom("bare", "array", "object")).map(([x, y, wrap]) =>
  wrap === "bare" ? [x, y] : wrap === "array" ? [[1, x], [1, y]] : [{ k: { v: x } }, { k: { v: y } }],
) as fc.Arbitrary<[unknown, unknown]>;
/** 常常相等的一对值：同一个值、结构相同的两份、两份里再改一点、差在一个原始值上，或者随便两个。 */
const pair: fc.Arbitrary<[unknown, unknown]> = fc.oneof(
  trickyPair,
  value.map((v) => [v, v] as [unknown, unknown]),
  fc.clone(value, 2).map(([a, b]) => [a, b] as [unknown, unknown]),
  fc.tuple(fc.clone(value, 2), fc.string({ maxLength: 3 }), fc.anything({ maxDepth: 1 })).map(([[a, b], key, extra]) => {
    if (typeof b === "object" && b !== null && !Object.isFrozen(b)) (b as Record<string, unknown>)[key] = extra;
    return [a, b] as [unknown, unknown];
  }),
  fc.tuple(fc.dictionary(fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 })), fc.string({ maxLength: 3 })).map(([o, key]) => [{ ...o }, { ...o, [key]: undefined }] as [unknown, unknown]),
  fc.tuple(value, value),
);
const params = { numRuns: 200, seed: SEED };

describe("fastExpect 和 vitest 的 expect 查的是同一件事", () => {
  it("toEqual、toBe：任意一对值，结果和错误消息都一样", () => {
    fc.assert(
      fc.property(pair, ([a, b]) => {
        expect(outcome(() => fastExpect(a, "m").toEqual(b))).toBe(outcome(() => expect(a, "m").toEqual(b)));
        expect(outcome(() => fastExpect(a).toBe(b))).toBe(outcome(() => expect(a).toBe(b)));
      }),
      params,
    );
  });

  it("成环的对象、有 getter 的对象、撤销的 Proxy、类的实例：交给 expect 判，结果一样", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const cyclic2: Record<string, unknown> = { a: 1 };
    cyclic2.self = cyclic2;
    const getter = Object.defineProperty({}, "x", { get: () => 1, enumerable: true });
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    class Point {
      constructor(readonly x: number) {}
    }
    const cases: [unknown, unknown][] = [
      [cyclic, cyclic2],
      [getter, { x: 1 }],
      [{ x: 1 }, getter],
      [proxy, {}],
      [new Point(1), { x: 1 }],
      [{ x: 1 }, new Point(1)],
      [[1, , 3], [1, undefined, 3]], // eslint-disable-line no-sparse-arrays
      [{ a: expect.any(String) }, { a: "s" }],
      [{ a: "s" }, { a: expect.any(String) }],
      [Object.assign(Object.create(null) as object, { a: 1 }), { a: 1 }],
      [-0, 0],
      [NaN, NaN],
    ];
    for (const [i, [a, b]] of cases.entries()) expect(outcome(() => fastExpect(a, "m").toEqual(b)), `case ${i}`).toBe(outcome(() => expect(a, "m").toEqual(b)));
  });

  it("toContain、not.toContain、toMatch、not.toMatch、toHaveLength、比大小：任意值，结果和错误消息都一样", () => {
    // 常量里有能被每个正则匹配上的字符串（"a" 对 /a/g、/a/y），不靠随机种子碰巧生成
    const text = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("error: x", "half\nerror: y", "", "a", "banana", "ab"));
    const haystack = fc.oneof(text, fc.array(fc.oneof(text, fc.integer(), fc.constant(NaN)), { maxLength: 4 }), fc.anything({ maxDepth: 1 }));
    const pattern = fc.oneof(fc.constantFrom(/^error: /, /x$/s, /y/, /^$/, /a/g, /a/y), fc.string({ maxLength: 2 }));
    fc.assert(
      fc.property(haystack, fc.oneof(text, fc.integer(), fc.constant(NaN)), pattern, fc.integer({ min: -1, max: 5 }), (h, item, p, n) => {
        expect(outcome(() => fastExpect(h, "m").toContain(item))).toBe(outcome(() => expect(h, "m").toContain(item)));
        expect(outcome(() => fastExpect(h, "m").not.toContain(item))).toBe(outcome(() => expect(h, "m").not.toContain(item)));
        // 每次调用一个新的正则：带 g/y 的正则记着 lastIndex，共用一个对象，后一次调用看到的就不是同一个正则了
        const re = (): RegExp | string => (p instanceof RegExp ? new RegExp(p.source, p.flags) : p);
        expect(outcome(() => fastExpect(h, "m").toMatch(re()))).toBe(outcome(() => expect(h, "m").toMatch(re())));
        expect(outcome(() => fastExpect(h, "m").not.toMatch(re()))).toBe(outcome(() => expect(h, "m").not.toMatch(re())));
        expect(outcome(() => fastExpect(h, "m").toHaveLength(n))).toBe(outcome(() => expect(h, "m").toHaveLength(n)));
        for (const x of [h, n, item]) {
          expect(outcome(() => fastExpect(x, "m").toBeGreaterThan(n))).toBe(outcome(() => expect(x, "m").toBeGreaterThan(n)));
          expect(outcome(() => fastExpect(x, "m").toBeGreaterThanOrEqual(n))).toBe(outcome(() => expect(x, "m").toBeGreaterThanOrEqual(n)));
          expect(outcome(() => fastExpect(x, "m").toBeLessThanOrEqual(n))).toBe(outcome(() => expect(x, "m").toBeLessThanOrEqual(n)));
          expect(outcome(() => fastExpect(x, "m").toBeUndefined())).toBe(outcome(() => expect(x, "m").toBeUndefined()));
        }
      }),
      params,
    );
  });

  it("带 g/y 标志的正则：两个方向都交给 expect 判（以前 not.toMatch 在这里直接放行，匹配上了也算过）", () => {
    // 每次用一个新的正则：带 g/y 的正则记着 lastIndex，同一个对象用第二次结果就变了
    for (const flags of ["g", "y"]) {
      const re = (): RegExp => new RegExp("a", flags);
      expect(outcome(() => fastExpect("a", "m").not.toMatch(re()))).toBe(outcome(() => expect("a", "m").not.toMatch(re())));
      expect(() => fastExpect("a", "m").not.toMatch(re())).toThrow();
      expect(() => fastExpect("a", "m").toMatch(re())).not.toThrow();
    }
  });

  it("toThrow、not.toThrow：函数只调一次，结果和错误消息都一样", () => {
    const boom = new Error("boom");
    for (const fn of [() => undefined, () => 1, () => { throw boom; }, () => { throw "a string"; }]) {
      let calls = 0;
      const counted = (): unknown => (calls++, fn());
      expect(outcome(() => fastExpect(counted, "m").toThrow())).toBe(outcome(() => expect(fn, "m").toThrow()));
      expect(outcome(() => fastExpect(counted, "m").not.toThrow())).toBe(outcome(() => expect(fn, "m").not.toThrow()));
      expect(calls).toBe(2);
    }
  });

  it("失败时报的位置是写断言的那一行，不是 fast-expect.ts", () => {
    let stack = "";
    try {
      fastExpect({ a: 1 }, "where").toEqual({ a: 2 });
    } catch (error) {
      stack = error instanceof Error ? (error.stack ?? "") : "";
    }
    const frames = stack.split("\n").filter((l) => l.trim().startsWith("at "));
    expect(frames[0]).toContain("fast-expect.test.ts");
    expect(stack).not.toContain("support/fast-expect.ts");
  });
});
