/**
 * Runs inline at the end of <body> (issue 19): asks for the app's scripts and full stylesheet
 * once the page has painted its first screen, so on a slow line the HTML and its inlined styles
 * paint without them competing for the connection (main.tsx waits for the stylesheet). Also
 * after half a second, for a tab opened in the background, where frames do not run.
 * Self-contained: its source is inlined as it is.
 *
 * Each chunk the entry imports at once (React in a chunk of its own, vite.config.ts) is a module
 * script of its own, not a module preload: a module script runs its module when it arrives, in a
 * task of its own, so the entry's run no longer evaluates every module of the first load in one
 * long task (at 4× CPU, 180–210 ms became 140–170 ms plus React's own). Modules run once
 * whatever asks for them first, and before anything that imports them.
 */
export function loadAfterFirstPaint(entry: string, parts: string[], stylesheets: string[]): void {
  var started = false;
  var start = function () {
    if (started) return;
    started = true;
    stylesheets.forEach(function (href) {
      var link = document.createElement('link');
      link.rel = 'stylesheet';
      link.crossOrigin = '';
      link.href = href;
      document.head.appendChild(link);
    });
    parts.concat(entry).forEach(function (src) {
      var script = document.createElement('script');
      script.type = 'module';
      script.crossOrigin = '';
      script.src = src;
      document.head.appendChild(script);
    });
  };
  requestAnimationFrame(function () {
    setTimeout(start, 0);
  });
  setTimeout(start, 500);
}
