// EVOLUTION.md §1–§3 写成测试（规则本身在 tooling/constitution/check.ts，数据在 tooling/constitution/data.ts）：一条规则一个 describe，
// 在每一门已有的课上跑，也在几对必须失败的小样例上跑（tests/fixtures/constitution/<情形>/sNN.ts）。
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type ApiBuild, buildApiReports, lessonSources } from "../tooling/api/extract.ts";
import { API_DIR, findLessons } from "../tooling/course.ts";
import {
  checkAppendOnly,
  checkDictionary,
  checkImports,
  checkNoExecutionPolicy,
  checkSince,
  checkStreams,
  checkStructure,
  checkU1Stale,
  checkU1Tags,
  checkU2,
  pairsOf,
  type Rule,
  type Sources,
  type Violation,
} from "../tooling/constitution/check.ts";

const lessons = findLessons();
const files = lessons.map((l) => l.codePath);
const ids = lessons.map((l) => l.id);
const pairs = pairsOf(ids).map(([a, b]) => `${a} → ${b}`);
let build: ApiBuild;
let sources: Sources;

beforeAll(() => {
  build = buildApiReports(files); // 所有课共用一个程序，每个进程建一次
  sources = lessonSources(files);
});

const lines = (violations: Violation[], ...rules: Rule[]) =>
  violations.filter((v) => rules.length === 0 || rules.includes(v.rule)).map((v) => v.line);

describe("类型检查：每课都按 tsconfig.json 编译通过", () => {
  it.each(ids)("%s 没有 TypeScript 错误", (id) => {
    expect(build.diagnostics[id]).toEqual([]);
  });
});

describe("提交的 API 报告（tests/api/sNN.json）是最新的", () => {
  it.each(ids)("tests/api/%s.json 和这一课对得上", (id) => {
    const path = join(API_DIR, `${id}.json`);
    const committed: unknown = existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : null;
    expect(committed, `tests/api/${id}.json is missing or stale: run \`npm run gen:api\``).toEqual(build.reports[id]);
  });

  it("每份报告都有对应的课", () => {
    const reports = readdirSync(API_DIR).filter((f) => /^s\d{2}\.json$/.test(f));
    expect(reports.map((f) => f.slice(0, 3)).filter((id) => !ids.includes(id))).toEqual([]);
  });
});

describe("R1/R2/R8.1：每课留着上一课的每一个键（只增）", () => {
  it.skipIf(pairs.length === 0).each(pairs)("%s", (pair) => {
    const next = pair.slice(-3);
    const violations = checkAppendOnly(build.reports).filter((v) => v.lesson === next);
    expect(lines(violations, "R1", "R2", "R8.1")).toEqual([]);
  });
});

describe("U1：破坏兼容的改动恰好是清单上的升级", () => {
  it("没有哪处破坏兼容的改动冒用或改动清单上的升级", () => {
    expect(lines(checkAppendOnly(build.reports), "U1")).toEqual([]);
  });
  it("清单上的升级没有过时的（课在，改动却没发生）", () => {
    expect(lines(checkU1Stale(build.reports))).toEqual([]);
  });
  it("升级过的声明从那一课起都带 @upgraded sNN (U1)", () => {
    expect(lines(checkU1Tags(build.reports))).toEqual([]);
  });
});

describe("U2：ResourceLoader、RuntimeEvent、Tool、Output 只有一个定义、一种形状", () => {
  it("每课只定义一次，第一次出现之后不再加键", () => {
    expect(lines(checkU2(build.reports, sources))).toEqual([]);
  });
});

describe("§2 字典：每个字典类型在每一课恰好有它的成员", () => {
  it.each(ids)("%s", (id) => {
    expect(lines(checkDictionary({ [id]: build.reports[id]! }))).toEqual([]);
  });
});

describe("@since：写的是有这个声明的第一课，之后不变，导出的声明必须有", () => {
  it("每个声明的 @since 都对", () => {
    expect(lines(checkSince(build.reports))).toEqual([]);
  });
});

describe("R7：IO 边缘（main、它用的 const X: Output、入口那句 if）以外，没有通往进程输出流的路", () => {
  it("语法树上别处都没有 console、process、全局对象、eval/Function 或边缘的对象", () => {
    expect(lines(checkStreams(sources))).toEqual([]);
  });
});

describe("R8.2：每课的文件自成一体（只 import node:url 和 zod，所以也能离线跑）", () => {
  it("不 import 别的课，也不 import 别的模块", () => {
    expect(lines(checkImports(sources))).toEqual([]);
  });
});

describe("R6：core 里没有执行策略", () => {
  it("没有 Policy / Executor / Sandbox 这样的声明（拦截只有钩子）", () => {
    expect(lines(checkNoExecutionPolicy(sources))).toEqual([]);
  });
});

// ── 样例：每一种都得被抓到，报出它的规则编号和那一行 ──
const FIXTURES = join(import.meta.dirname, "fixtures", "constitution");
const EXPECTED: Record<string, string[]> = {
  "r1-removed-field": ["s01 → s02 R1: ProviderInput.tools removed"],
  "r1-removed-union-member": ['s04 → s05 R1: StopReason|"toolUse" removed'],
  "r1-changed-parameter": [
    "s01 → s02 R1: Provider.complete changed: (input: ProviderInput) => Promise<string> → (input: string) => Promise<string>",
  ],
  "r2-removed-method": ["s04 → s05 R2: ToolRegistry#run removed"],
  "r8-removed-declaration": ["s01 → s02 R8.1: describeError removed"],
  "u1-unlisted-upgrade": [
    "s04 → s05 U1: ToolSpec.input changed: : Record<string, string> → : unknown (upgrade not on the U1 list)",
  ],
  "u1-stale": [
    "s03 U1: listed upgrade Provider.complete did not happen ((input: ProviderInput) => Promise<string> → removed)",
    "s03 U1: Provider lacks @upgraded s03 (U1)",
  ],
  "u1-missing-tag": ["s03 U1: Provider lacks @upgraded s03 (U1)"],
  "u2-duplicate": ["s02 U2: Output is defined 2 times"],
  "u2-reshaped": ["s01 → s02 U2: Output.flush added (Output must keep one shape)"],
  // 第 2 类：顶层以下的第二个定义（namespace、函数体、类型参数里）也算
  "u2-nested": ["s02 U2: Output is defined 4 times (also inside namespace Legacy, line 5; render, line 9; wrap, line 14)"],
  "since-wrong": ["s02 @since: ToolSpec is tagged @since s01, but first appears in s02"],
  "since-missing": ["s02 @since: ToolSpec has no @since tag"],
  "r7-console": ["s02 R7: console in runOneTurn (line 6)"],
  // 第 1 类：通往输出流的其余各条路——process、全局对象、别名、边缘自己的 Output、Function 构造器
  "r7-streams": [
    "s02 R7: process in runOneTurn (line 8)",
    's02 R7: ["console"] in warn (line 13)',
    "s02 R7: globalThis in warn (line 13)",
    "s02 R7: console in shout.c (line 17)",
    "s02 R7: the IO edge's consoleOutput in debug (line 22)",
    "s02 R7: .constructor in sneak.make (line 26)",
  ],
  "r8-import": ['s02 R8.2: imports "../s01/code.ts" (line 1); a lesson may import only node:url, zod'],
  "r6-policy": ["s02 R6: declares ExecutionPolicy; the core has no execution policy (hooks are the only interceptor)"],
  valid: [],
  "valid-u1": [],
};

describe("样例：检查器抓得到每一种违规（tests/fixtures/constitution）", () => {
  it("每个样例文件夹都写了预期", () => {
    expect(readdirSync(FIXTURES).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(EXPECTED))("%s", (name, expected) => {
    const caseFiles = readdirSync(join(FIXTURES, name))
      .sort()
      .map((f) => join(FIXTURES, name, f));
    const { reports } = buildApiReports(caseFiles);
    const violations = checkStructure(reports, lessonSources(caseFiles));
    expect(violations.map((v) => v.line)).toEqual(expected);
    // 那一行里写的规则编号就是这条违规带的编号
    for (const v of violations) expect(v.line).toContain(` ${v.rule}: `);
  });

  it("字典：少了的、多出来的、写错的成员各报一条", () => {
    const dictionary = {
      s02: {
        Tool: { Tool: "export type", "Tool.spec": ": ToolSpec", "Tool.handler": ": ToolHandler" },
        ToolSpec: { ToolSpec: "export type", "ToolSpec.name": ": string", "ToolSpec.description": ": string" },
        ToolHandler: { ToolHandler: "export type" },
      },
    };
    const report = {
      Tool: "export type",
      "Tool.spec": ": ToolSpec",
      "Tool.handler": ": string",
      "Tool.extra": ": number",
      ToolSpec: "export type",
      "ToolSpec.name": ": string",
    };
    expect(lines(checkDictionary({ s02: report }, dictionary, {}))).toEqual([
      "s02 dictionary: Tool.handler is : string, expected : ToolHandler",
      "s02 dictionary: Tool.extra is not in the dictionary (: number); list it in EXTRAS with a decision id",
      "s02 dictionary: ToolSpec.description missing (expected : string)",
      "s02 dictionary: ToolHandler missing",
    ]);
  });
});
