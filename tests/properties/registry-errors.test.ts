// 性质测试（fast-check）：ToolRegistry.run 的参数错误逐字是 s04 README「run 的报错一览」那张表写的样子（D18）。
// 表上的每一行另有 tests/docs.test.ts 核对它和代码对得上；这里证明行为真是那样：任意参数表、任意一组缺的、类型不对的、
// 多余的参数，报错的每一段、段和段之间的分隔（`; `）、多余参数之间的分隔（`, `）、先后顺序，都和表上说的一字不差。
import fc from "fast-check";
import { it } from "vitest";
import { fastExpect } from "../support/fast-expect.ts";
import type { Registry } from "../../tooling/lesson.ts";
import { forLessonsFrom } from "../support/for-lessons.ts";
import { brokenToolArb, notStringArb, params } from "./common.ts";

/** 参数名：常见的、摸得到原型的（`constructor`、`toString`、`__proto__`）、像数字的（JavaScript 会把它们排到最前面）、随便的。 */
const keyArb = fc.oneof(
  fc.constantFrom("path", "text", "file", "extra", "constructor", "toString", "__proto__", "hasOwnProperty", "0", "10", "2", "", " ", "a\"b", "路径"),
  fc.string({ minLength: 1, maxLength: 6 }),
);

type Given = { kind: "ok"; value: string } | { kind: "missing" } | { kind: "wrong"; value: unknown };
const givenArb: fc.Arbitrary<Given> = fc.oneof(
  fc.string({ maxLength: 4 }).map((value) => ({ kind: "ok" as const, value })),
  fc.constant({ kind: "missing" as const }),
  notStringArb.map((value) => ({ kind: "wrong" as const, value })),
);

/**
 * 一个工具的参数表、每个参数给了什么，和至少两个多余的参数。键都是自己的数据属性（`__proto__` 也是，不是改原型）。
 * 参数表里不放 `__proto__`：登记时 zod 的 record 就把它丢了，这个工具根本没有这个参数（EVOLUTION.md §8）。
 */
const caseArb = fc
  .uniqueArray(keyArb.filter((k) => k !== "__proto__"), { minLength: 0, maxLength: 5 })
  .chain((declared) =>
    fc.record({
      declared: fc.constant(declared),
      given: fc.array(givenArb, { minLength: declared.length, maxLength: declared.length }),
      extra: fc.uniqueArray(keyArb.filter((k) => !declared.includes(k)), { minLength: 2, maxLength: 5 }),
      extraValues: fc.array(fc.oneof(fc.string({ maxLength: 3 }), notStringArb), { minLength: 5, maxLength: 5 }),
    }),
  );

function registryWith(Registry: new () => Registry, declared: readonly string[]): Registry {
  const registry = new Registry();
  registry.register({ spec: { name: "t", description: "t", input: Object.fromEntries(declared.map((k) => [k, k])) }, handler: () => "ran" });
  return registry;
}

forLessonsFrom("toolLoop", (_id, load) => {
  it("参数错误：多余的参数（两个以上）按它们在参数对象里的顺序逐个点名，用 `, ` 隔开；缺的、不是字符串的按参数表的顺序在前；几段之间用 `; ` 隔开", async () => {
    const mod = await load();
    await fc.assert(
      fc.property(caseArb, ({ declared, given, extra, extraValues }) => {
        const registry = registryWith(mod.ToolRegistry, declared);
        const entries: [string, unknown][] = [];
        declared.forEach((k, i) => {
          const g = given[i];
          if (g.kind !== "missing") entries.push([k, g.value]);
        });
        extra.forEach((k, i) => entries.push([k, extraValues[i]]));
        const input = Object.fromEntries(entries);
        // 「参数表的顺序」「参数对象里的顺序」都是 Object.keys 的顺序：像数字的键排在最前面，这是 JavaScript 对象自己的规矩
        const specOrder = Object.keys(Object.fromEntries(declared.map((k) => [k, k])));
        const problems = specOrder.flatMap((k) => {
          const g = given[declared.indexOf(k)];
          return g.kind === "ok" ? [] : [`argument "${k}" ${g.kind === "missing" ? "is missing" : "must be a string"}`];
        });
        const unexpected = Object.keys(input).filter((k) => !declared.includes(k));
        fastExpect(unexpected.length, "the generator gave at least two unexpected keys").toBeGreaterThanOrEqual(2);
        problems.push(unexpected.map((k) => `unexpected argument "${k}"`).join(", "));
        const result = registry.run?.({ id: "c1", name: "t", input });
        fastExpect(result).toBe(`error: invalid arguments for tool "t": ${problems.join("; ")}`);
      }),
      params,
    );
  });

  it("参数根本不是对象（null、undefined、数组、字符串、数字、函数）：只有一句 `arguments must be an object`，handler 不跑", async () => {
    const mod = await load();
    await fc.assert(
      fc.property(
        fc.uniqueArray(keyArb, { maxLength: 3 }),
        fc.oneof(fc.constant(null), fc.constant(undefined), fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }), fc.string({ maxLength: 4 }), fc.integer(), fc.boolean(), fc.constant(() => "x")),
        (declared, input) => {
          const registry = registryWith(mod.ToolRegistry, declared);
          fastExpect(registry.run?.({ id: "c1", name: "t", input: input as unknown as Record<string, unknown> })).toBe('error: invalid arguments for tool "t": arguments must be an object');
        },
      ),
      params,
    );
  });
});

// ── s02 起：形状不对的工具登记不进来 ─────────────────────────

forLessonsFrom("checkedTools", (_id, load) => {
  it("形状不对的工具登记不进来：register 抛 `invalid tool: <哪里>: …`，点名坏在哪；已经登记的工具和清单都不变", async () => {
    const mod = await load();
    await fc.assert(
      fc.property(brokenToolArb, ({ tool, path }) => {
        const registry = new mod.ToolRegistry();
        registry.register({ spec: { name: "ok", description: "ok", input: { a: "a" } }, handler: () => "ran" });
        const before = JSON.stringify(registry.getSpecs());
        let thrown: unknown;
        try {
          registry.register(tool as Parameters<Registry["register"]>[0]);
        } catch (error) {
          thrown = error;
        }
        fastExpect(thrown instanceof Error && thrown.message.startsWith(`invalid tool: ${path}: `), `register threw ${String(thrown)}`).toBe(true);
        fastExpect(JSON.stringify(registry.getSpecs())).toBe(before);
        if (registry.run) fastExpect(registry.run({ id: "c1", name: "ok", input: { a: "x" } })).toBe("ran");
      }),
      params,
    );
  });
});
