// 一条测试写一次，对「从引入它的那一课起」的每一课各跑一遍：每课一个 describe，名字就是课号（练习模式按它挑出一课的测试）。
import { describe } from "vitest";
import { LESSONS, lessonNumber } from "../../tooling/course.ts";
import { type Feature, has, lessonOf } from "../../tooling/features.ts";
import { type LessonModule, importLesson } from "../../tooling/lesson.ts";

/** 一课的课号（`s04`），或一个零件（`"hooks"`）：从引入它的那一课起。 */
export type From = string | Feature;

/**
 * 对 from 起的每一门已有的课各开一个 describe。行为一旦在某课引入，后面每一课都得守住。
 * before：只到这个零件出现之前（比如一轮之内现取工具清单，只在有快照之前成立）。
 */
export function forLessonsFrom(from: From, body: (id: string, load: () => Promise<LessonModule>) => void, options: { before?: Feature } = {}): void {
  const first = lessonNumber(lessonOf(from));
  const { before } = options;
  for (const id of LESSONS.filter((l) => lessonNumber(l) >= first && (before === undefined || !has(l, before)))) {
    describe(id, () => body(id, () => importLesson(id)));
  }
}
