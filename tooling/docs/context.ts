// What a docs check is handed: the lesson's code, its API report and the previous one, its U1 upgrades, where every
// name comes from, a Pi lookup, the fidelity scenarios and a way to run 试一下's commands. The real course and the fixtures under
// tests/fixtures/docs/ are loaded the same way (loadProject), so the checks cannot tell them apart.
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
  /** Every known Pi repo path (source files and docs), for short/suffix path forms. */
  paths: readonly string[];
  /** Whether `name` (`A` or `A.b`) is defined in the Pi source file `path`. */
  nameIn(name: string, path: string): boolean;
  /** The Pi source files that define `name`. */
  filesDefining(name: string): readonly string[];
  /** A string literal type of Pi's declarations (`agent_start`). */
  hasLiteral(value: string): boolean;
}

export interface DocsContext {
  /** `s03_stream`, for messages. */
  lessonDir: string;
  /** This lesson's code.ts text. */
  code: string;
  /** This lesson's API report; undefined when tests/api/sNN.json is missing. */
  report: ApiReport | undefined;
  /** The previous lesson's report; undefined for the first lesson (s01) or when its report is missing. */
  prevReport: ApiReport | undefined;
  /** The lesson before this one (`s02`), or undefined for the first lesson. */
  prevLesson: string | undefined;
  /** U1 upgrade keys of this lesson (`Provider.complete`). */
  upgrades: readonly string[];
  /** name → the lesson that introduces it (min over reports, dictionary, LESSON_NAMES). */
  origins: ReadonlyMap<string, NameOrigin>;
  /** Lessons that have an API report (a label `(sNN 加)` pointing there can be verified). */
  reported: ReadonlySet<string>;
  pi: PiLookup;
  /** Fidelity scenario id → the first lesson it runs on (fidelity/scenarios.ts, fidelity/mechanisms.ts). */
  fidelity: ReadonlyMap<string, string>;
  run: CommandRunner;
}

export type CheckFn = (lessonId: string, readme: string, ctx: DocsContext) => string[] | Promise<string[]>;

/** The lesson that introduces `name`, when that is after `lessonId` (tooling/names.ts, with this lesson's code). */
export const laterLesson = (name: string, lessonId: string, ctx: DocsContext): string | undefined =>
  laterLessonOf(name, lessonId, { origins: ctx.origins, tokens: () => codeTokens(ctx.code) });

// ── the real project, or a fixture folder ─────────────────
export interface Project {
  root: string;
  lessons: CourseLesson[];
  reports: Map<string, ApiReport>;
  /** The U1 list; undefined when the constitution is not used (fixtures): upgrades are then read off the reports. */
  upgrades: { lesson: string; key: string }[] | undefined;
  origins: Map<string, NameOrigin>;
  pi: PiLookup;
  run: CommandRunner;
}

export interface ProjectOptions {
  root?: string;
  /** Where sNN.json reports live (default `<root>/tests/api`). */
  apiDir?: string;
  run?: CommandRunner;
  /** Use tooling/constitution/data.ts's U1_UPGRADES and DICTIONARY (default true; the fixtures have their own world). */
  useConstitution?: boolean;
}

let piPaths: string[] | undefined;

/** Every fidelity scenario the comparison with Pi runs, by id, with the first lesson it runs on. */
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
