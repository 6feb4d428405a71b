// 每条文档检查拿到的东西：这一课的代码、它和前一课的 API 报告、它的 U1 升级、每个名字是哪一课引入的、查 Pi 名字的办法、
// 保真对照的场景，和跑「试一下」命令的办法。真的课程和 tests/fixtures/docs/ 下的样例用同一个 loadProject 载入，检查分不出两者。
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { breakingChanges } from "../api/diff.ts";
import { DICTIONARY, U1_UPGRADES } from "../constitution/data.ts";
import { type ApiReport, type CourseLesson, ROOT, findLessons, previousLesson, readApiReports } from "../course.ts";
import { type CommandRunner, createCommandRunner } from "../demos.ts";
import { MECHANISM_SCENARIOS } from "../../fidelity/mechanisms.ts";
import { LOOP_SCENARIOS } from "../../fidelity/scenarios.ts";
import { type NameOrigin, buildOrigins, codeTokens, laterLessonOf } from "../names.ts";
import { hasPiLiteral, hasPiName, hasPiPath, loadPiIndex, piFilesDefining, piNameIn } from "../pi-index.ts";

export interface PiLookup {
  hasName(name: string): boolean;
  hasPath(path: string): boolean;
  /** Pi 仓库里知道的每个路径（源文件和文档），用来认简写、只写后半截的路径。 */
  paths: readonly string[];
  /** `name`（`A` 或 `A.b`）是不是在 Pi 的源文件 `path` 里定义的。 */
  nameIn(name: string, path: string): boolean;
  /** 定义了 `name` 的那几个 Pi 源文件。 */
  filesDefining(name: string): readonly string[];
  /** Pi 的声明里的一个字符串字面量类型（`agent_start`）。 */
  hasLiteral(value: string): boolean;
}

export interface DocsContext {
  /** `s03_stream`，报错里用。 */
  lessonDir: string;
  /** 这一课 code.ts 的全文。 */
  code: string;
  /** 这一课的 API 报告；tests/api/sNN.json 不在时是 undefined。 */
  report: ApiReport | undefined;
  /** 前一课的报告；第一课（s01）或前一课的报告不在时是 undefined。 */
  prevReport: ApiReport | undefined;
  /** 前一课的课号（`s02`），第一课是 undefined。 */
  prevLesson: string | undefined;
  /** 这一课的 U1 升级的键（`Provider.complete`）。 */
  upgrades: readonly string[];
  /** 名字 → 引入它的那一课（API 报告、字典、LESSON_NAMES 里最早的那一课）。 */
  origins: ReadonlyMap<string, NameOrigin>;
  /** 有 API 报告的课（标签 `(sNN 加)` 指到这些课时能核对）。 */
  reported: ReadonlySet<string>;
  pi: PiLookup;
  /** 保真对照的场景 id → 它从哪一课起跑（fidelity/scenarios.ts、fidelity/mechanisms.ts）。 */
  fidelity: ReadonlyMap<string, string>;
  run: CommandRunner;
}

export type CheckFn = (lessonId: string, readme: string, ctx: DocsContext) => string[] | Promise<string[]>;

/** 引入 `name` 的那一课，如果它在 `lessonId` 之后（tooling/names.ts，连同这一课的代码一起看）。 */
export const laterLesson = (name: string, lessonId: string, ctx: DocsContext): string | undefined =>
  laterLessonOf(name, lessonId, { origins: ctx.origins, tokens: () => codeTokens(ctx.code) });

// ── 真的课程，或者一个样例文件夹 ─────────────────
export interface Project {
  root: string;
  lessons: CourseLesson[];
  reports: Map<string, ApiReport>;
  /** U1 清单；不用宪法时（样例）是 undefined，升级从报告的差异里读。 */
  upgrades: { lesson: string; key: string }[] | undefined;
  origins: Map<string, NameOrigin>;
  pi: PiLookup;
  run: CommandRunner;
}

export interface ProjectOptions {
  root?: string;
  /** sNN.json 报告放在哪（默认 `<root>/tests/api`）。 */
  apiDir?: string;
  run?: CommandRunner;
  /** 用不用 tooling/constitution/data.ts 的 U1_UPGRADES 和 DICTIONARY（默认用；样例有自己的一套）。 */
  useConstitution?: boolean;
}

let piPaths: string[] | undefined;

/** 和 Pi 对照时跑的每个场景，按 id，带着它从哪一课起跑。 */
export const FIDELITY_SCENARIOS: ReadonlyMap<string, string> = new Map([
  ...LOOP_SCENARIOS.map((s) => [s.id, s.since] as const),
  ...MECHANISM_SCENARIOS.map((s) => [s.id, s.mechanism] as const),
]);

export const realPi: PiLookup = {
  hasName: (name) => hasPiName(name),
  hasPath: (path) => hasPiPath(path),
  nameIn: (name, path) => piNameIn(name, path),
  filesDefining: (name) => piFilesDefining(name),
  hasLiteral: (value) => hasPiLiteral(value),
  get paths() {
    const idx = loadPiIndex();
    piPaths ??= [...Object.keys(idx.files), ...Object.keys(idx.internal), ...idx.docs];
    return piPaths;
  },
};

export function loadProject(options: ProjectOptions = {}): Project {
  const root = options.root ?? ROOT;
  const reports = readApiReports(options.apiDir ?? join(root, "tests", "api"));
  const constitution = options.useConstitution !== false;
  return {
    root,
    lessons: findLessons(root),
    reports,
    upgrades: constitution ? U1_UPGRADES : undefined,
    origins: buildOrigins(reports, constitution ? DICTIONARY : {}),
    pi: realPi,
    run: options.run ?? createCommandRunner(root),
  };
}

export function contextFor(project: Project, lesson: CourseLesson): DocsContext {
  const prevLesson = previousLesson(lesson.id);
  const report = project.reports.get(lesson.id);
  const prevReport = prevLesson ? project.reports.get(prevLesson) : undefined;
  const upgrades = project.upgrades
    ? project.upgrades.filter((u) => u.lesson === lesson.id).map((u) => u.key)
    : prevReport && report
      ? breakingChanges(prevReport, report).map((c) => c.key)
      : [];
  return {
    lessonDir: lesson.dir,
    code: readFileSync(lesson.codePath, "utf8"),
    report,
    prevReport,
    prevLesson,
    upgrades,
    origins: project.origins,
    reported: new Set(project.reports.keys()),
    pi: project.pi,
    fidelity: FIDELITY_SCENARIOS,
    run: project.run,
  };
}
