// 英文入口 README.en.md 和 README.md 对得上（tooling/docs/english-readme.ts）：快速开始的命令、课程表每课一行、每节的零件、
// 升级的标记，README.md 开头链到它。样例只有三节课（tests/fixtures/docs/english/），坏样例在 tests/fixtures/docs/bad/en-*.md。
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LESSON_DIRS, ROOT } from "../tooling/course.ts";
import { checkEnglishReadme } from "../tooling/docs/english-readme.ts";

describe("README.en.md 和 README.md 对得上（命令、十二节课和每节的零件）", () => {
  const read = (...path: string[]): string => readFileSync(join(ROOT, ...path), "utf8");
  const scripts = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts;

  it("仓库里的两份 README", () => {
    expect(checkEnglishReadme({ zh: read("README.md"), en: read("README.en.md"), lessonDirs: LESSON_DIRS, scripts })).toEqual([]);
  });

  // 样例只有三节课（tests/fixtures/docs/english/），坏样例在 tests/fixtures/docs/bad/en-*.md
  const zh = read("tests", "fixtures", "docs", "english", "README.md");
  const en = read("tests", "fixtures", "docs", "english", "README.en.md");
  const lessonDirs = ["s01_one_turn", "s02_tools", "s03_stream"];
  const fixtureScripts = { s01: "", s02: "", s03: "", diff: "" };
  const check = (english: string, chinese = zh): string[] => checkEnglishReadme({ zh: chinese, en: english, lessonDirs, scripts: fixtureScripts });

  it("好的样例一条都不报", () => {
    expect(check(en)).toEqual([]);
  });

  it("bad/en-missing-lesson.md：少了一节课的那一行", () => {
    expect(check(read("tests", "fixtures", "docs", "bad", "en-missing-lesson.md"))).toEqual([
      "README.en.md The lessons: README.en.md's lesson table has no row for s02_tools",
    ]);
  });

  it("bad/en-command-drift.md：一条命令和 README.md 不一样了", () => {
    expect(check(read("tests", "fixtures", "docs", "bad", "en-command-drift.md"))).toEqual([
      "README.en.md Getting started: `npm run diff` in README.md 快速开始 but not here",
      "README.en.md Getting started: `npm run changes` not in README.md 快速开始",
      "README.en.md Getting started: `npm run changes` is not a script in package.json",
    ]);
  });

  it("零件对不上、升级的标记丢了、README.md 开头没链过来，都报得出来", () => {
    expect(check(en.replace("`ProviderEvent`", "`ProviderEvents`"))).toEqual([
      "README.en.md The lessons line 19 (s03_stream): New parts lacks `ProviderEvent` (README.md names it in 本节新增的零件)",
      "README.en.md The lessons line 19 (s03_stream): New parts names `ProviderEvents`, which README.md's row does not",
    ]);
    expect(check(en.replace("**upgrade**", "upgrade"))).toEqual(["README.en.md The lessons line 19 (s03_stream): the upgrade mark (bold) is in README.md's row only"]);
    // 英文的普通词不算名字，只有行内代码里的才算
    expect(check(en.replace("three message types", "three `Message` types"))).toEqual([
      "README.en.md The lessons line 17 (s01_one_turn): New parts names `Message`, which README.md's row does not",
    ]);
    expect(check(en, zh.replace("[English](README.en.md) | 中文\n\n", ""))).toEqual(["README.en.md: README.md must link it in its first paragraph"]);
    expect(check(en.replace("## The lessons", "## Lessons"))).toEqual(["README.en.md: no ## The lessons (README.md has ## 课程目录)"]);
  });
});
