/**
 * @module CSS of the gallery page.
 */
export const galleryStyle = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,Segoe UI,DejaVu Sans,sans-serif;background:#0d1117;color:#c9d1d9}
header{padding:24px 32px;border-bottom:1px solid #30363d;background:#161b22;position:sticky;top:0;z-index:1}
h1{margin:0 0 4px;font-size:24px;color:#f0f6fc}
header p{margin:0 0 12px;color:#8b949e}
nav{display:flex;flex-wrap:wrap;gap:8px;margin-top:12px}
nav a{color:#58a6ff;text-decoration:none;font-family:ui-monospace,DejaVu Sans Mono,monospace;font-size:13px}
main{padding:8px 32px 48px;max-width:1200px}
section{border-bottom:1px solid #21262d;padding:24px 0}
h2{margin:0;font-size:18px}
h2 code{color:#f0f6fc}
.examples{display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start;margin:12px 0}
.build{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:24px;align-items:start}
@media (max-width:900px){.build{grid-template-columns:1fr}}
.builder{display:grid;grid-template-columns:repeat(auto-fill,minmax(160px,1fr));gap:10px 16px;margin:0}
h3{margin:16px 0 8px;font-size:14px;color:#8b949e;font-weight:600}
.preview img{max-width:100%}
label{display:flex;flex-direction:column;gap:4px;font-size:13px;color:#8b949e}
input,select{font:inherit;color:#c9d1d9;background:#0d1117;border:1px solid #30363d;border-radius:6px;padding:6px 8px}
input[type=checkbox]{width:18px;height:18px}
.preview{min-height:40px}
.url,.markdown{width:100%;font-family:ui-monospace,DejaVu Sans Mono,monospace;font-size:12px}
section>label{margin-top:8px}
`;
