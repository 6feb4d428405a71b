// s04 README 那张 run 报错表的读法（tooling/docs/error-table.ts）：从 ToolRegistry.run 的语法树读出它会回的每句话和分隔符，
// 再和表对上。真 README 上的检查在 tests/docs.test.ts（「run 的报错一览和代码对得上」，连同换进 s04 README 的改坏的表）。
import { describe, expect, it } from "vitest";
import type { DocsContext } from "../tooling/docs/context.ts";
import { checkErrorTable, runWordings } from "../tooling/docs/error-table.ts";
import { fixtureCtx } from "./support/docs-fixture.ts";

describe("run 的报错一览：从 run 的语法树读出它会回的每句话", () => {
  const registry = (body: string): string => `class ToolRegistry {\n  run(call: ToolCall): string {\n${body}\n  }\n}\n`;

  it("模板里的 ${…} 是空位，挑字面量的条件表达式每一支各算一句；比较里的字面量不算；map 之后 join 的是分隔符，别的 join 在空位里", () => {
    const code = registry(`
    if (call.name === "x") return \`error: unknown tool "\${call.name}"\`;
    const problems = call.issues.map((i) => \`argument "\${i.path.join(".")}" \${i.given ? "must be a string" : "is missing"}\`);
    if (typeof call !== "object") return "error: not an object";
    return \`error: bad: \${problems.join("; ")} / \${call.keys.map((k) => k).join(" | ")}\`;`);
    expect(runWordings(code)).toEqual({
      wordings: ['error: unknown tool "<…>"', 'argument "<…>" must be a string', 'argument "<…>" is missing', "error: not an object", "error: bad: <…> / <…>"],
      separators: ["; ", " | "],
    });
    expect(runWordings("class Other { run() { return \"x\"; } }")).toBeUndefined();
  });

  it("run 交给本文件的顶层函数去做的那部分也读：传进去的文字填进参数的空位，try 里调用的函数抛出的话带上 catch 回的开头；空位里调的函数不读", () => {
    const code = `${registry(`
    try {
      check(call);
    } catch (error) {
      return \`error: \${describeError(error)}\`;
    }
    return expectText(call.out, \`tool "\${call.name}"\`);`)}
function check(call: ToolCall): void {
  if (!call.ok) throw new Error(\`invalid arguments for tool "\${call.name}": \${call.problems.join("; ")}\`);
}
function expectText(value: unknown, who: string): string {
  return typeof value === "string" ? value : \`error: \${who} returned \${String(value)}, expected a string\`;
}
function describeError(error: unknown): string {
  return "unprintable";
}`;
    expect(runWordings(code)).toEqual({
      wordings: ["error: <…>", 'error: invalid arguments for tool "<…>": <…>', 'error: tool "<…>" returned <…>, expected a string'],
      separators: [],
    });
    // 改了函数里的一句话，run 会回的话就跟着变：表还写着旧的，检查就报
    const drifted = code.replace("expected a string", "expected text");
    expect(runWordings(drifted)?.wordings).toContain('error: tool "<…>" returned <…>, expected text');
  });

  it("代码里多了一句、表里多了一句、分隔符变了，都报出来；别的课（run 不是它引入的）不查", () => {
    const ctx = (code: string, prev: boolean): DocsContext => ({
      ...fixtureCtx,
      code,
      report: { "ToolRegistry#run": "(call: ToolCall) => string" },
      prevReport: prev ? { "ToolRegistry#run": "(call: ToolCall) => string" } : {},
    });
    const code = registry(`
    if (!call) return "error: gone";
    return \`error: \${call.keys.map((k) => \`unexpected "\${k}"\`).join(", ")}\`;`);
    const readme = (rows: string): string => `## 工作原理\n\n| 报错 | 什么时候 |\n|---|---|\n${rows}\n`;
    const good = "| `error: gone` | 没了 |\n| `error: <说明>` | 出错 |\n| `unexpected \"<参数>\"` | 多了 |\n| `, ` | 隔开 |";
    expect(checkErrorTable("s04", readme(good), ctx(code, false))).toEqual([]);
    expect(checkErrorTable("s05", readme(""), ctx(code, true))).toEqual([]);
    expect(checkErrorTable("s04", readme(good.replace("| `, ` | 隔开 |", "| `; ` | 隔开 |")), ctx(code, false))).toEqual([
      's04 README 工作原理: ToolRegistry.run joins wordings with ", ", but the 报错 table has no row for that separator',
      's04 README 工作原理: the 报错 table lists the separator "; ", but ToolRegistry.run joins with no such separator',
    ]);
    expect(checkErrorTable("s04", readme(`${good}\n| \`error: extra\` | 多写的 |`), ctx(code, false))).toEqual([
      "s04 README 工作原理: the 报错 table lists `error: extra`, but ToolRegistry.run has no such wording",
    ]);
    expect(checkErrorTable("s04", "## 工作原理\n\n没有表。\n", ctx(code, false))).toEqual([
      "s04 README 报错一览: no table whose first header cell says 「报错」 lists the wordings ToolRegistry.run can return",
    ]);
  });
});
