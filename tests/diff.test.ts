// npm run diff（scripts/diff.ts）打印的 API 变化是读者会写的 TypeScript，不是 API 报告的内部键；s01 打印整个地基。
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { apiLines, codeLines, declarationText, lessonDiff, signatureText } from "../scripts/diff.ts";
import { diffReports } from "../tooling/api/diff.ts";
import { ROOT, lessonDir } from "../tooling/course.ts";

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

/** 函数体里的行号（花括号之间的行）。 */
function bodyLines(code: string): Set<number> {
  const sf = ts.createSourceFile("code.ts", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const lines = new Set<number>();
  const visit = (n: ts.Node): void => {
    if (ts.isFunctionLike(n) && "body" in n && n.body !== undefined && ts.isBlock(n.body)) {
      const from = sf.getLineAndCharacterOfPosition(n.body.getStart(sf)).line + 2;
      const to = sf.getLineAndCharacterOfPosition(n.body.getEnd()).line;
      for (let l = from; l <= to; l++) lines.add(l);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return lines;
}

/** 完整 diff 里加上的、落在函数体里的行（`+  12  …`，注释也算），去掉行号和缩进；太短的（`}`、`break;`）不算。 */
function addedBodyLines(full: string, code: string): string[] {
  const body = bodyLines(code);
  return full
    .split("\n")
    .map((l) => /^\+\s*(\d+) {2}(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null && body.has(Number(m[1])))
    .map((m) => m[2].trim())
    .filter((l) => l.length >= 12);
}

/** --api 的输出哪里不对：打出了完整 diff 里新加的函数体代码行，或者漏了新增 API 键里的名字、字面量。 */
function apiOnlyProblems(full: string, api: string, code: string, keys: readonly string[]): string[] {
  const leaked = addedBodyLines(full, code).filter((l) => api.includes(l)).map((l) => `prints a new body line: ${l}`);
  // 一个键算点到了：有一行同时写着它的每个名字和字面量（`ToolRegistry#run` → 一行里有 ToolRegistry 和 run 这两个词）
  const lines = api.split("\n");
  const hasWord = (line: string, w: string): boolean =>
    w.startsWith('"') ? line.includes(w) : new RegExp(`(^|[^\\w$])${w.replace(/\$/g, "\\$")}([^\\w$]|$)`).test(line);
  const missing = keys
    .filter((k) => !k.includes("@"))
    .filter((k) => {
      const words = (k.match(/[\w$]+|"[^"]*"/g) ?? []).filter((w) => w !== "new");
      // s01 的 AgentMessage.role：别名是几个有名字的类型的联合（`type AgentMessage = AssistantMessage | UserMessage`），成员写在那几个类型里
      const union = new RegExp(`^\\+ type ${words[0]} = [\\w$]+( \\| [\\w$]+)+$`);
      return !lines.some((line) => words.every((w) => hasWord(line, w)) || (words.length === 2 && union.test(line)));
    })
    .map((k) => `does not name ${k}`);
  return [...leaked, ...missing];
}

describe("npm run diff -- sNN --api：只看接口，不看答案", () => {
  const code = (id: string): string => readFileSync(join(ROOT, lessonDir(id), "code.ts"), "utf8");
  const both = (id: string): { full: string; api: string; keys: string[] } => {
    const i = ids.indexOf(id);
    const prev = i === 0 ? undefined : { id: ids[i - 1], report: reports[ids[i - 1]] ?? {}, code: code(ids[i - 1]) };
    return {
      full: lessonDiff(id, prev, reports[id] ?? {}, code(id)),
      api: lessonDiff(id, prev, reports[id] ?? {}, code(id), true),
      keys: prev === undefined ? Object.keys(reports[id] ?? {}) : diffReports(prev.report, reports[id] ?? {}).added,
    };
  };
  for (const id of ids) {
    it(`${id}：没有一行新的函数体代码，每个新增的 API 键都点到了`, () => {
      const { full, api, keys } = both(id);
      expect(addedBodyLines(full, code(id)).length, id).toBeGreaterThan(0);
      expect(apiOnlyProblems(full, api, code(id), keys), id).toEqual([]);
      expect(api).toContain(`（--api 不打印代码；要看：npm run diff -- ${id}）`);
    });
  }

  it("多打一行函数体、少点一个键，这条检查都会失败", () => {
    const { full, api, keys } = both("s04");
    const leaked = `${api}\n${addedBodyLines(full, code("s04"))[0]}`;
    expect(apiOnlyProblems(full, leaked, code("s04"), keys)).toHaveLength(1);
    const withoutRun = api.replace(/^\+ ToolRegistry\.run\(.*$/m, "");
    expect(apiOnlyProblems(full, withoutRun, code("s04"), ["ToolRegistry#run"])).toEqual(["does not name ToolRegistry#run"]);
  });
});
