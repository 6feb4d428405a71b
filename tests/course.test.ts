// 课程的事实（tooling/course.ts）和功能表（tooling/features.ts）：认出的课连成一串，表里每个零件在它说的那一课第一次出现。
import { describe, expect, it } from "vitest";
import { LESSONS, lessonNumber, readApiReports } from "../tooling/course.ts";
import { FEATURES, featureTableProblems, has } from "../tooling/features.ts";

describe("课程的事实", () => {
  it("课号连续，从 s01 起", () => {
    expect(LESSONS.map(lessonNumber)).toEqual(LESSONS.map((_, i) => i + 1));
  });
});

describe("功能表：哪一课起有哪个零件", () => {
  const reports = readApiReports();

  it("每个零件点名的 API 键，恰好在表里说的那一课第一次出现（tests/api/sNN.json）", () => {
    expect(featureTableProblems(FEATURES, reports)).toEqual([]);
  });

  it("表写错了就报出来：课号错了、点名的键哪一课都没有", () => {
    const wrong = { ...FEATURES, hooks: { since: "s04", marks: "ToolHooks" }, ghosts: { since: "s03", marks: "GhostRegistry" } };
    expect(featureTableProblems(wrong, reports)).toEqual([
      "hooks: the table says s04, but ToolHooks first appears in s05",
      "ghosts: no API report has GhostRegistry",
    ]);
  });

  it("has：引入那一课和之后的每一课都有，之前的课没有", () => {
    expect(LESSONS.filter((id) => has(id, "extensions"))).toEqual(LESSONS.filter((id) => lessonNumber(id) >= 9));
  });
});
