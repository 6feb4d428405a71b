// npm run diff（scripts/diff.ts）打印的 API 变化是读者会写的 TypeScript，不是 API 报告的内部键；s01 打印整个地基。
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { apiLines, codeLines, declarationText, signatureText } from "../scripts/diff.ts";
import { ROOT } from "../tooling/course.ts";

const dir = join(ROOT, "tests", "api");
const reports = Object.fromEntries(
  readdirSync(dir)
    .filter((f) => /^s\d\d\.json$/.test(f))
    .sort()
    .map((f) => [f.slice(0, 3), JSON.parse(readFileSync(join(dir, f), "utf8")) as Record<string, string>]),
);
const ids = Object.keys(reports);

describe("npm run diff", () => {
  it("s01 把整个 API 当作永驻基础打印出来，一个声明一行，代码每一行都在", () => {
    const lines = apiLines("s01", reports.s01 ?? {}, undefined);
    const decls = Object.keys(reports.s01 ?? {}).filter((k) => /^[\w$]+$/.test(k));
    expect(lines[0]).toBe(`## API：地基，${decls.length} 个声明（之后每课只加不删）`);
    expect(lines).toContain("+ function runOneTurn(agent: Agent, userInput: string): Promise<AssistantMessage>");
    expect(lines).toContain("+ interface Provider { complete(input: ProviderInput): Promise<string> }");
    const code = codeLines(undefined, "a\nb");
    expect(code).toEqual(["## code.ts：2 行，全部是地基", "+   1  a", "+   2  b"]);
  });

  it("改动按读者的写法点名：成员、联合成员连同它的字段、升级", () => {
    const s04 = apiLines("s04", reports.s04 ?? {}, reports.s03);
    expect(s04).toContain("+ ToolRegistry.run(call: ToolCall): string");
    expect(s04).toContain('+ ProviderEvent 的成员 { call: ToolCall; type: "tool_call" }');
    expect(s04).toContain('+ StopReason 的成员 "toolUse"');
    expect(apiLines("s11", reports.s11 ?? {}, reports.s10)).toContain(
      "~ ResourceLoader.load(): ContextResource[] → ResourceLoader.load(trust: ProjectTrust): ContextResource[]  [这是升级（U1）]",
    );
  });

  it("哪一课的输出都看不到报告内部的键写法（|[…]、[type=…]、#、@、new()）", () => {
    for (const [i, id] of ids.entries()) {
      const text = apiLines(id, reports[id] ?? {}, i === 0 ? undefined : reports[ids[i - 1] ?? ""]).slice(1).join("\n");
      expect(text, id).not.toMatch(/\|\[|\[\w+=|#|@|new\(\)/);
    }
  });

  it("签名读起来像方法；函数类型的参数原样保留", () => {
    expect(signatureText("(type: string, handler: (e: Event) => void) => void")).toBe("(type: string, handler: (e: Event) => void): void");
    expect(signatureText("<T>(x: T) => Promise<T>")).toBe("<T>(x: T): Promise<T>");
    expect(declarationText({ X: "export class", "X#a": "readonly : number", "X.constructor": "new (n: number) => X" }, "X")).toBe("class X { constructor(n: number); readonly a: number }");
  });
});
