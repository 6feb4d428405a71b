// 写着「放的是什么」的三张表和目录对得上（tooling/docs/folder-map.ts）：根 README「仓库布局」的目录表认领每个顶层文件夹，
// tests/README.md 的测试表认领 tests/ 下每个测试文件、工具库表认领 tooling/ 第一层的每一项；写出的名字都真有。
// 目录由 git 给（tooling/repo/files.ts：被 .gitignore 挡掉的 node_modules/、.cache/、practice/ 不算）。
// 好样例 tests/fixtures/docs/folder-map/README.md，坏样例两头各一个：bad/folder-map-missing.md（漏了一个文件夹）、bad/folder-map-ghost.md（写了一个没有的）。
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../tooling/course.ts";
import { checkFolderMap, checkTestsReadme, nameMatcher } from "../tooling/docs/folder-map.ts";
import { entriesUnder, repoFiles, topFolders } from "../tooling/repo/files.ts";

const read = (...path: string[]): string => readFileSync(join(ROOT, ...path), "utf8");

describe("根 README 的仓库布局", () => {
  const files = repoFiles();

  it("每个顶层文件夹都在目录表里，表里写的文件夹都有，每行都写了谁用；被忽略的文件夹不算", () => {
    const folders = topFolders(files);
    expect(folders).toEqual(expect.arrayContaining(["tests/", "tooling/", ".ci/", "s01_one_turn/", "s12_packages/"]));
    expect(folders.filter((f) => ["node_modules/", ".git/", ".cache/", "practice/", ".tmp/"].includes(f))).toEqual([]);
    expect(checkFolderMap(read("README.md"), folders)).toEqual([]);
  });

  const FOLDERS = ["s01_one/", "s02_two/", "tests/", "tooling/"];
  const fixture = (...path: string[]): string => read("tests", "fixtures", "docs", ...path);

  it("好样例一条都不报；别的一节里的同样表头的表不算", () => {
    expect(checkFolderMap(fixture("folder-map", "README.md"), FOLDERS)).toEqual([]);
  });

  it("bad/folder-map-missing.md：目录里的 tooling/ 在表里没有一行", () => {
    expect(checkFolderMap(fixture("bad", "folder-map-missing.md"), FOLDERS)).toEqual(["README.md 仓库布局 table: `tooling/` is in the tree but in no row"]);
  });

  it("bad/folder-map-ghost.md：表里的 docs/ 在目录里没有", () => {
    expect(checkFolderMap(fixture("bad", "folder-map-ghost.md"), FOLDERS)).toEqual(["README.md 仓库布局 table line 11: `docs/` is not in the tree"]);
  });

  it("也报得出：没写谁用、写的是文件不是文件夹、文件夹漏了结尾的 /、通配的名字一个都套不上、整节没了", () => {
    const good = fixture("folder-map", "README.md");
    expect(checkFolderMap(good.replace("| 维护者 |", "| 大家 |"), FOLDERS)).toEqual(["README.md 仓库布局 table line 10: 「谁用」 names none of 学习者、写课的人、维护者"]);
    expect(checkFolderMap(good.replace("`tests/` | 测试", "`tests/`、`tooling/a.ts` | 测试"), [...FOLDERS, "tooling/a.ts"])).toEqual([
      "README.md 仓库布局 table line 10: `tooling/a.ts` is not a folder (write folders as `name/`)",
    ]);
    expect(checkFolderMap(good.replace("`tests/`", "`tests`"), FOLDERS)).toEqual([
      "README.md 仓库布局 table line 10: `tests` is not in the tree (a folder is written `tests/`)",
      "README.md 仓库布局 table: `tests/` is in the tree but in no row",
      "README.md 仓库布局 table line 10: `tests` is not a folder (write folders as `name/`)",
    ]);
    expect(checkFolderMap(good, ["tests/", "tooling/"])).toEqual(["README.md 仓库布局 table line 9: `sNN_*/` is not in the tree"]);
    expect(checkFolderMap(good.replace("## 仓库布局", "## 目录"), FOLDERS)).toEqual(["README.md: no ## 仓库布局"]);
    expect(checkFolderMap(good.replace("| 文件夹 | 放的是什么 | 谁用 |", "| 文件夹 | 放的是什么 | 读者 |"), FOLDERS)).toEqual(["README.md 仓库布局 table: no column 「谁用」"]);
  });

  it("名字的写法：* 是任意一段（可以跨 /），NN 是两位数字，别的照字面", () => {
    expect(["s01_one_turn/", "s12_packages/"].every((p) => nameMatcher("sNN_*/").test(p))).toBe(true);
    expect(["s1_x/", "sNN_x", "xs01_y/", "s01_x"].some((p) => nameMatcher("sNN_*/").test(p))).toBe(false);
    expect(nameMatcher("properties/*.test.ts").test("properties/boundaries/tool-contract.test.ts")).toBe(true);
    expect(nameMatcher("a.ts").test("abts")).toBe(false);
  });
});

describe("tests/README.md 的测试表和工具库表", () => {
  const files = repoFiles();
  const readme = read("tests", "README.md");

  it("tests/ 下每个测试文件、tooling/ 第一层的每个文件和文件夹都有一行认领，写出的名字都有", () => {
    expect(entriesUnder(files, "tooling/")).toEqual(expect.arrayContaining(["practice/", "repo/", "repo/files.ts"]));
    expect(checkTestsReadme(readme, files)).toEqual([]);
  });

  it("会失败：漏了一个测试文件、工具库里多了一个没写的文件、表里写了一个没有的", () => {
    expect(checkTestsReadme(readme, [...files, "tests/new-rule.test.ts", "tooling/new-helper.ts", "tests/fixtures/x/y.test.ts"])).toEqual([
      "tests/README.md table: `new-rule.test.ts` is in the tree but in no row",
      "tests/README.md 课程工具库 tooling/ table: `new-helper.ts` is in the tree but in no row",
    ]);
    const row = "| `course.test.ts` |";
    expect(checkTestsReadme(readme.replace(row, "| `courses.test.ts` |"), files)).toEqual([
      expect.stringMatching(/^tests\/README\.md table line \d+: `courses\.test\.ts` is not in the tree$/),
      "tests/README.md table: `course.test.ts` is in the tree but in no row",
    ]);
  });
});
