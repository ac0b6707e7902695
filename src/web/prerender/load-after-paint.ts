/**
 * Runs inline at the end of <body> (issue 19): asks for the app's scripts and full stylesheet
 * once the page has painted its first screen, so on a slow line the HTML and its inlined styles
 * paint without them competing for the connection (main.tsx waits for the stylesheet). Also after half a second, for a tab opened in the
 * background, where frames do not run. Self-contained: its source is inlined as it is.
 */
export function loadAfterFirstPaint(entry: string, preloads: string[], stylesheets: string[]): void {
  var started = false;
  var link = function (rel: string, href: string) {
    var element = document.createElement('link');
    element.rel = rel;
    element.crossOrigin = '';
    element.href = href;
    document.head.appendChild(element);
  };
  var start = function () {
    if (started) return;
    started = true;
    stylesheets.forEach(function (href) {
      link('stylesheet', href);
    });
    preloads.forEach(function (href) {
      link('modulepreload', href);
    });
    var script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = entry;
    document.head.appendChild(script);
  };
  requestAnimationFrame(function () {
    setTimeout(start, 0);
  });
  setTimeout(start, 500);
}
