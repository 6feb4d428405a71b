// D39 / R8：假模型的剧本表（createFakeProvider 里的 `script`）每课只加行。一课引入的行，之后每一课都逐字还在、先后不变；
// 表从 s02 起有（那一课它有了第一行；s01 的假模型只会复述问题，没有表），表名和它的三个类型名（Seen、Answer、Line）从此每课都在。表是函数里的局部名字，API 报告看不到它，所以这里在语法树上查。
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { LESSON_DIRS as LESSONS, ROOT } from "../tooling/course.ts";

type Script = { names: string[]; rows: string[] };

/** createFakeProvider 里的局部类型名、剧本表的名字和每一行的原文。 */
function scriptOf(source: string): Script {
  const file = ts.createSourceFile("code.ts", source, ts.ScriptTarget.Latest, true);
  const provider = file.statements.find((s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && s.name?.text === "createFakeProvider");
  const names: string[] = [];
  let rows: string[] = [];
  for (const statement of provider?.body?.statements ?? []) {
    if (ts.isTypeAliasDeclaration(statement)) names.push(statement.name.text);
    if (!ts.isVariableStatement(statement)) continue;
    for (const d of statement.declarationList.declarations) {
      if (!ts.isIdentifier(d.name) || d.name.text !== "script") continue;
      names.push("script");
      if (d.initializer !== undefined && ts.isArrayLiteralExpression(d.initializer)) rows = d.initializer.elements.map((e) => e.getText(file));
    }
  }
  return { names, rows };
}

/** 前一课的每一行都逐字出现在后一课里，先后不变；表名和类型名不少。说不出问题就是空数组。 */
function carried(before: Script, after: Script): string[] {
  const problems = before.names.filter((n) => !after.names.includes(n)).map((n) => `${n} is gone`);
  let from = 0;
  for (const row of before.rows) {
    const at = after.rows.indexOf(row, from);
    if (at === -1) problems.push(`row changed, moved or removed: ${row.split("\n")[0]}`);
    else from = at + 1;
  }
  return problems;
}

const scripts = LESSONS.map((dir) => scriptOf(readFileSync(join(ROOT, dir, "code.ts"), "utf8")));

describe("D39/R8：假模型的剧本表只加行", () => {
  it("s01 没有表；s02 起每课都有表名 script 和它的类型 Seen、Answer、Line，表里至少一行", () => {
    expect(scripts[0], LESSONS[0]).toEqual({ names: [], rows: [] });
    for (const [i, s] of scripts.entries()) {
      if (i === 0) continue;
      expect([...s.names].sort(), LESSONS[i]).toEqual(["Answer", "Line", "Seen", "script"]);
      expect(s.rows.length, LESSONS[i]).toBeGreaterThan(0);
    }
  });
  it.each(LESSONS.slice(1).map((dir, i) => [LESSONS[i], dir] as const))("%s → %s：前一课的行逐字带过来，先后不变", (a, b) => {
    expect(carried(scripts[LESSONS.indexOf(a)], scripts[LESSONS.indexOf(b)])).toEqual([]);
  });
  it("改了一行、换了顺序、删了一行，检查都报得出来（这条检查本身能失败）", () => {
    const last = scripts.at(-1);
    if (last === undefined || last.rows.length < 2) throw new Error("s12 has rows");
    const [first, second, ...rest] = last.rows;
    expect(carried(last, { ...last, rows: [first.replace("say(", "say( "), second, ...rest] })).toHaveLength(1);
    expect(carried(last, { ...last, rows: [second, first, ...rest] })).toHaveLength(1);
    expect(carried(last, { ...last, rows: [second, ...rest] })).toHaveLength(1);
    expect(carried(last, { names: last.names.filter((n) => n !== "script"), rows: last.rows })).toEqual(["script is gone"]);
  });
});
