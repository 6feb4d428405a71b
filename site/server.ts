// 一个极小的静态文件服务器（node:http），只听 127.0.0.1：npm run site:serve 和浏览器测试都用它。
import { createReadStream, existsSync, statSync } from "node:fs";
import { type Server, createServer } from "node:http";
import { extname, join, normalize, resolve, sep } from "node:path";

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

export type StaticServer = { url: string; close(): Promise<void> };

/** 在 dir 上起服务。port 0 = 随便一个空闲端口。 */
export function serveStatic(dir: string, port = 0, host = "127.0.0.1"): Promise<StaticServer> {
  const root = resolve(dir);
  const find = (pathname: string): string | undefined => {
    const rel = normalize(decodeURIComponent(pathname)).replace(/^(\.\.(\/|\\|$))+/, "");
    let file = join(root, rel);
    if (file !== root && !file.startsWith(root + sep)) return undefined;
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
    if (!existsSync(file) && extname(file) === "") file = `${file}.html`;
    return existsSync(file) && statSync(file).isFile() ? file : undefined;
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    let file: string | undefined;
    try {
      file = find(url.pathname);
    } catch {
      file = undefined;
    }
    const status = file === undefined ? 404 : 200;
    file ??= join(root, "404.html");
    if (!existsSync(file)) {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found");
      return;
    }
    res.writeHead(status, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "cache-control": "no-cache" });
    if (req.method === "HEAD") res.end();
    else createReadStream(file).pipe(res);
  });
  return new Promise((resolvePromise, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const address = server.address();
      const actual = typeof address === "object" && address !== null ? address.port : port;
      resolvePromise({
        url: `http://${host}:${actual}`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}
