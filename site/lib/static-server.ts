// 一个极小的静态文件服务器（node:http），只听 127.0.0.1：npm run site:serve 和浏览器测试都用它。
// 站点构建时挂在哪个路径（base，site/lib/base.ts）下，服务器就只在那个路径下给文件，别处一律 404，和 GitHub Pages 的项目页一样。
// 文字类的文件（HTML、JS、CSS、JSON、SVG）按浏览器的 Accept-Encoding 压缩（brotli，其次 gzip），压好的结果按文件缓存在内存里。
import { existsSync, readFileSync, statSync } from "node:fs";
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import { extname, join, normalize, resolve, sep } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

/** 值得压缩的类型（woff2、png 本身已经压过）。 */
const COMPRESSIBLE = new Set([".html", ".js", ".css", ".json", ".svg", ".txt"]);

/** url 是站点首页（带 base，结尾是 /）之前的部分：`http://127.0.0.1:4173`；站点首页是 url + base。 */
export type StaticServer = { url: string; base: string; close(): Promise<void> };

type Encoding = "br" | "gzip" | "identity";

/** 从 Accept-Encoding 里挑：有 br 用 br，其次 gzip，都没有（或 q=0）就不压。 */
export function pickEncoding(header: string | undefined): Encoding {
  const accepted = new Map<string, number>();
  for (const part of (header ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (name === "") continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const ok = (name: string): boolean => (accepted.get(name) ?? accepted.get("*") ?? 0) > 0;
  if (ok("br")) return "br";
  if (ok("gzip")) return "gzip";
  return "identity";
}

/** 把 dir 挂在 base（`/` 或 `/learn-pi-agent/`）下起服务。port 0 = 随便一个空闲端口。 */
export function serveStatic(dir: string, port = 0, host = "127.0.0.1", base = "/"): Promise<StaticServer> {
  const root = resolve(dir);
  const body = compressedBodies();
  const server: Server = createServer((req, res) => respond(root, base, body, req, res));
  return listen(server, port, host, base);
}

/** 网址路径 → root 下的文件：目录取 index.html，没有扩展名的再试 .html；跳出 root 的、不存在的是 undefined。 */
function findFile(root: string, pathname: string): string | undefined {
  const rel = normalize(decodeURIComponent(pathname)).replace(/^(\.\.(\/|\\|$))+/, "");
  let file = join(root, rel);
  if (file !== root && !file.startsWith(root + sep)) return undefined;
  if (existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
  if (!existsSync(file) && extname(file) === "") file = `${file}.html`;
  return existsSync(file) && statSync(file).isFile() ? file : undefined;
}

type Bodies = (file: string, encoding: Encoding) => Buffer;

/** 文件按编码压好；结果按（编码、文件、修改时间）缓存在内存里，文件改了就重压。 */
function compressedBodies(): Bodies {
  const cache = new Map<string, Buffer>();
  return (file, encoding) => {
    const key = `${encoding}:${file}:${statSync(file).mtimeMs}`;
    let out = cache.get(key);
    if (out === undefined) {
      const raw = readFileSync(file);
      out =
        encoding === "br"
          ? brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } })
          : encoding === "gzip"
            ? gzipSync(raw, { level: 9 })
            : raw;
      cache.set(key, out);
    }
    return out;
  };
}

function respond(root: string, base: string, body: Bodies, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? "/", "http://localhost");
  // 少了结尾斜杠的 base（/learn-pi-agent）转到首页，和 GitHub Pages 一样
  if (base !== "/" && url.pathname === base.slice(0, -1)) {
    res.writeHead(301, { location: `${base}${url.search}` }).end();
    return;
  }
  let file: string | undefined;
  try {
    file = url.pathname.startsWith(base) ? findFile(root, `/${url.pathname.slice(base.length)}`) : undefined;
  } catch {
    // 解不开的 %xx（decodeURIComponent 抛错）当成找不到
    file = undefined;
  }
  const status = file === undefined ? 404 : 200;
  file ??= join(root, "404.html");
  if (!existsSync(file)) {
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found");
    return;
  }
  const type = extname(file);
  const encoding = COMPRESSIBLE.has(type) ? pickEncoding(req.headers["accept-encoding"]) : "identity";
  const data = body(file, encoding);
  const headers: Record<string, string | number> = {
    "content-type": TYPES[type] ?? "application/octet-stream",
    "cache-control": "no-cache",
    "content-length": data.length,
  };
  if (COMPRESSIBLE.has(type)) headers.vary = "Accept-Encoding";
  if (encoding !== "identity") headers["content-encoding"] = encoding;
  res.writeHead(status, headers);
  res.end(req.method === "HEAD" ? undefined : data);
}

/** 开始监听；port 是 0 时 url 里是系统分到的那个端口。 */
function listen(server: Server, port: number, host: string, base: string): Promise<StaticServer> {
  return new Promise((resolvePromise, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const address = server.address();
      const actual = typeof address === "object" && address !== null ? address.port : port;
      resolvePromise({
        url: `http://${host}:${actual}`,
        base,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}
