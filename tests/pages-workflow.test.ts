// .github/workflows/pages.yml：把网页阅读器发布到 GitHub Pages 的工作流。它必须用项目自己的命令构建（和 .ci/run 里
// 构建站点的是同一条 npm run site），base 设成项目页的路径，上传的正是构建写出的目录；package.json 的 homepage 就是那个项目页。
// 每条要求都有一份改坏的工作流证明它会报错。
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { BASE_ENV, normalizeBase } from "../site/lib/base.ts";
import { SITE } from "../site/lib/course.ts";
import { ROOT } from "../tooling/course.ts";

const WORKFLOW = join(ROOT, ".github", "workflows", "pages.yml");
/** npm run site 写出的目录（site/build.ts 的 DIST），相对仓库根。 */
const DIST = relative(ROOT, join(SITE, "dist"));
const BUILD = "npm run site";
const PROJECT_BASE = "/${{ github.event.repository.name }}/";

const Step = z.object({ uses: z.string().optional(), run: z.string().optional(), with: z.record(z.string(), z.unknown()).optional(), env: z.record(z.string(), z.unknown()).optional() });
const Workflow = z.object({
  permissions: z.record(z.string(), z.string()).optional(),
  concurrency: z.object({ group: z.string() }).optional(),
  jobs: z.record(z.string(), z.object({ needs: z.union([z.string(), z.array(z.string())]).optional(), steps: z.array(Step) })),
});

/** 工作流违反的每一条（空就是好的）。 */
function checkPagesWorkflow(text: string): string[] {
  const parsed = Workflow.safeParse(parse(text));
  if (!parsed.success) return [`pages.yml: not a workflow (${parsed.error.issues[0]?.message ?? "?"})`];
  const wf = parsed.data;
  const out: string[] = [];
  const steps = Object.values(wf.jobs).flatMap((j) => j.steps);
  const uses = (action: string) => steps.filter((s) => s.uses?.split("@")[0] === action);
  for (const s of steps) if (s.uses !== undefined && !/^[\w-]+\/[\w-]+@v\d+$/.test(s.uses)) out.push(`pages.yml: ${s.uses} is not pinned to a major version (owner/action@vN)`);
  if (wf.permissions?.pages !== "write" || wf.permissions["id-token"] !== "write") out.push("pages.yml: permissions must grant pages: write and id-token: write");
  if (wf.concurrency?.group !== "pages") out.push("pages.yml: concurrency group must be pages");
  if (uses("actions/checkout").length !== 1) out.push("pages.yml: no actions/checkout step");
  const node = uses("actions/setup-node")[0];
  if (String(node?.with?.["node-version"]) !== "24" || node?.with?.cache !== "npm") out.push("pages.yml: actions/setup-node must set node-version 24 and cache npm");
  const runs = steps.filter((s) => s.run !== undefined);
  const install = runs.findIndex((s) => s.run?.trim() === "npm ci");
  const build = runs.findIndex((s) => s.run?.trim() === BUILD);
  if (build < 0) out.push(`pages.yml: no step runs \`${BUILD}\` (the command .ci/run builds the site with)`);
  else {
    if (install < 0 || install > build) out.push("pages.yml: `npm ci` must run before the build");
    const base = runs[build]?.env?.[BASE_ENV];
    if (base !== PROJECT_BASE) out.push(`pages.yml: the build must set ${BASE_ENV}: ${PROJECT_BASE} (got ${JSON.stringify(base)})`);
  }
  const upload = uses("actions/upload-pages-artifact")[0];
  if (upload?.with?.path !== DIST) out.push(`pages.yml: actions/upload-pages-artifact must upload ${DIST}, the directory npm run site writes (got ${JSON.stringify(upload?.with?.path)})`);
  const deployJob = Object.values(wf.jobs).find((j) => j.steps.some((s) => s.uses?.startsWith("actions/deploy-pages@")));
  if (deployJob === undefined) out.push("pages.yml: no actions/deploy-pages step");
  else if (deployJob.needs === undefined) out.push("pages.yml: the deploy job must need the build job");
  return out;
}

describe("GitHub Pages 的工作流（.github/workflows/pages.yml）", () => {
  const text = readFileSync(WORKFLOW, "utf8");
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string>; homepage?: string; repository?: { url?: string } };

  it("用 npm run site 构建（和 .ci/run 同一条命令），挂在 /<仓库名>/ 下，上传构建写出的目录", () => {
    expect(checkPagesWorkflow(text)).toEqual([]);
    expect(pkg.scripts.site).toBe("tsx site/build.ts");
    expect(readFileSync(join(ROOT, ".ci", "run"), "utf8")).toMatch(/(^|\s)npm run site(\s|$)/m);
  });

  it("package.json 的 homepage 是这个仓库的项目页，路径就是工作流设的 base", () => {
    const repo = /github\.com\/([\w.-]+)\/([\w.-]+?)(?:\.git)?$/.exec(pkg.repository?.url ?? "");
    expect(repo).not.toBeNull();
    const [, owner, name] = repo ?? [];
    expect(pkg.homepage).toBe(`https://${owner}.github.io${normalizeBase(PROJECT_BASE.replace("${{ github.event.repository.name }}", name ?? ""))}`);
  });

  it("改坏的工作流都被报出来", () => {
    const broken = (from: string, to: string): string[] => {
      expect(text).toContain(from);
      return checkPagesWorkflow(text.replace(from, to));
    };
    expect(broken("run: npm run site", "run: npx vitepress build site")).toEqual(["pages.yml: no step runs `npm run site` (the command .ci/run builds the site with)"]);
    expect(broken("path: site/dist", "path: site/.gen")).toEqual([
      'pages.yml: actions/upload-pages-artifact must upload site/dist, the directory npm run site writes (got "site/.gen")',
    ]);
    expect(broken("LEARN_PI_SITE_BASE: /${{ github.event.repository.name }}/", "LEARN_PI_SITE_BASE: /")).toEqual([
      'pages.yml: the build must set LEARN_PI_SITE_BASE: /${{ github.event.repository.name }}/ (got "/")',
    ]);
    expect(broken("actions/checkout@v5", "actions/checkout@main")).toEqual(["pages.yml: actions/checkout@main is not pinned to a major version (owner/action@vN)"]);
    expect(broken("id-token: write", "id-token: read")).toEqual(["pages.yml: permissions must grant pages: write and id-token: write"]);
    expect(broken("node-version: 24", "node-version: 20")).toEqual(["pages.yml: actions/setup-node must set node-version 24 and cache npm"]);
    expect(broken("group: pages", "group: deploy")).toEqual(["pages.yml: concurrency group must be pages"]);
  });
});
