// 课程自己的 Node 这一边怎么碰 fidelity/ 里装的 Pi 1.6.0：版本、安装命令、装好了没有，装好了才加载要 Pi 的模块。
// Pi 的三个包装在 fidelity/node_modules 里（npm ci --prefix fidelity），不是课程自己的依赖：npm test 和课程的类型检查
// 都不能依赖它们。所以这个文件不引用 Pi，要 Pi 的模块（pi-bench.ts）按路径加载，没装时回一句怎么装。
// npm run bench、tests/bench/compare.test.ts 和毕业检查（tooling/graduation/setup.ts）都从这里问。

import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Side } from "../tooling/bench/workloads.ts";
import { ROOT } from "../tooling/course.ts";

export const PI_VERSION = "1.6.0";
export const PI_INSTALL = "npm ci --prefix fidelity --no-audit --no-fund --ignore-scripts";

/** fidelity/node_modules 里这个包的 ESM 入口（照它 package.json 的 exports["."].import）；没装、或装的不是 1.6.0 时为 undefined。 */
function installedEntry(pkg: string): string | undefined {
  const manifest = join(ROOT, "fidelity", "node_modules", pkg, "package.json");
  if (!existsSync(manifest)) return undefined;
  const json: { version?: string; exports?: { ".": { import?: string } } } = JSON.parse(readFileSync(manifest, "utf8"));
  const entry = json.exports?.["."]?.import;
  if (json.version !== PI_VERSION || entry === undefined) return undefined;
  return pathToFileURL(join(dirname(manifest), entry)).href;
}

/** fidelity/ 里装的这些 Pi 包都是 1.6.0 吗（默认问 pi-coding-agent，它用到另外两个）。 */
export const piInstalled = (packages: readonly string[] = ["@earendil-works/pi-coding-agent"]): boolean => packages.every((pkg) => installedEntry(pkg) !== undefined);

/**
 * 加载 npm run bench 的 Pi 一侧（pi-bench.ts，只要 pi-agent-core 和 pi-ai）。没装（或装的不是 1.6.0）时回一句原因和安装命令。
 * 路径是算出来的，课程的类型检查不跟进那个文件：它由 `tsc -p fidelity`（npm run fidelity）检查。
 */
export async function loadPiBench(): Promise<{ side: Side } | { missing: string }> {
  if (!piInstalled(["@earendil-works/pi-agent-core", "@earendil-works/pi-ai"])) {
    return { missing: `Pi ${PI_VERSION} is not installed in fidelity/node_modules; install it with \`${PI_INSTALL}\`` };
  }
  const bench = (await import(pathToFileURL(join(ROOT, "fidelity", "pi-bench.ts")).href)) as { piBenchSide(): Side };
  return { side: bench.piBenchSide() };
}
