// The page of pipelining-lab: starts runs with POST /runs, follows them over /runs/{id}/events, shows results as a
// table and a Chart.js chart, and lists recent runs from GET /runs. Plain browser JavaScript, no build step.
'use strict';

(function () {
  const FINAL = ['DONE', 'FAILED', 'CANCELLED'];
  const form = document.getElementById('run-form');
  const runButton = document.getElementById('run-button');
  const cancelButton = document.getElementById('cancel-button');
  const progress = document.getElementById('progress');
  const progressBar = document.getElementById('progress-bar');
  const progressText = document.getElementById('progress-text');
  const statusLine = document.getElementById('status');
  const problemBox = document.getElementById('problem');
  const results = document.getElementById('results');
  const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
  const decimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

  const announcer = document.getElementById('announcer');
  const more = document.getElementById('more-settings');
  let current = null; // { id, events } of the run this page follows
  let chart = null;
  let latencyChart = null;
  let serverCharts = [];
  // ops/s as the progress stream reported it while this page followed the run: { id, points: [{ t, ops, phase }] }.
  let timeline = { id: null, points: [] };
  let timelineChart = null;

  // ---- form -------------------------------------------------------------------------------------------------

  // A first visit shows operation, count and Run; the rest waits under "More settings", open or closed as the
  // visitor last left it.
  function remembered() {
    try {
      more.open = window.localStorage.getItem('lab.moreSettings') === 'open';
    } catch (failure) {
      // Storage refused (a private window): closed, as on a first visit.
    }
    more.addEventListener('toggle', () => {
      try {
        window.localStorage.setItem('lab.moreSettings', more.open ? 'open' : 'closed');
      } catch (failure) {
        // Not remembered, nothing else lost.
      }
    });
  }

  // A field the visitor must see (one that is wrong, or one a past run loads) opens the settings around it.
  function reach(field) {
    if (field && more.contains(field) && !more.open) {
      more.open = true;
    }
  }

  function kind() {
    return form.querySelector('input[name="kind"]:checked').value;
  }

  // Fields marked data-kinds="..." only apply to those kinds of run, as the API only accepts them there.
  function showFieldsFor(selected) {
    form.querySelectorAll('[data-kinds]').forEach((element) => {
      const applies = element.dataset.kinds.split(' ').includes(selected);
      if (element.tagName === 'OPTION') {
        element.disabled = !applies;
        element.hidden = !applies;
      } else {
        element.hidden = !applies;
      }
    });
    const operation = document.getElementById('operation');
    if (operation.selectedOptions[0].disabled) {
      operation.value = 'set';
    }
  }

  // Fields marked data-operations="..." only apply to those operations (ratio: mixed), as the API says.
  function showFieldsForOperation() {
    const operation = document.getElementById('operation').value;
    form.querySelectorAll('[data-operations]').forEach((element) => {
      element.hidden = !element.dataset.operations.split(' ').includes(operation);
    });
  }

  // ---- what was typed ----------------------------------------------------------------------------------------

  // The number fields are text fields: a number input hands a script 10 for "10k" and 100 for "１００", and runs
  // something else than was typed. Each is checked as it is typed, with the server's rule (PlainNumbers: ASCII
  // digits, an optional minus, a decimal point only for rtt) and its bounds from the parameter catalogue (GET /),
  // and says what is wrong next to itself, in the words the server would answer.
  const CHECKED = ['count', 'batchSize', 'repeat', 'valueSize', 'requests', 'clients', 'rate', 'duration', 'rtt',
    'keys', 'seed', 'batchSizes', 'instances'];
  const catalogue = {};

  function between(parameter, unit) {
    return parameter.minimum !== undefined ? ' between ' + parameter.minimum + ' and ' + parameter.maximum
      + (unit || '') : '';
  }

  // The server's message for a value of this parameter, or null when it would accept it.
  function problemWith(name) {
    const field = form.elements[name];
    if (!field || field.closest('[hidden]')) {
      return null;
    }
    const text = field.value.trim();
    if (text === '') {
      return name === 'count' ? 'count must be given' : null;
    }
    if (name === 'batchSizes') {
      const sizes = text.split(',').map((size) => size.trim()).filter((size) => size !== '');
      const bad = sizes.find((size) => !/^-?[0-9]+$/.test(size));
      if (bad !== undefined) {
        return "batchSizes must be whole numbers, got '" + bad + "'";
      }
      const bounds = catalogue.batchSize || {};
      const outside = sizes.find((size) => outOf(bounds, size, false));
      return outside !== undefined ? 'batchSizes must be' + between(bounds) + ', got ' + outside : null;
    }
    const parameter = catalogue[name] || {};
    const decimal = parameter.type === 'number';
    const unit = { valueSize: ' bytes', rtt: ' milliseconds' }[name];
    if (!(decimal ? /^-?[0-9]+(\.[0-9]+)?$/ : /^-?[0-9]+$/).test(text)) {
      return name + ' must be ' + (decimal ? 'a number of milliseconds' : 'a whole number') + between(parameter)
        + ", got '" + text + "'";
    }
    return outOf(parameter, text, decimal) ? name + ' must be' + between(parameter, unit) + ', got ' + text : null;
  }

  // Whole numbers compare as BigInt: a seed's bounds reach 2^63 - 1, past what a JavaScript number holds exactly
  // (as a number, 2^63 equals 2^63 - 1 and would pass).
  function outOf(parameter, text, decimal) {
    const value = decimal ? Number(text) : BigInt(text);
    const bound = (limit) => (decimal ? Number(limit) : BigInt(limit));
    return (parameter.minimum !== undefined && value < bound(parameter.minimum))
      || (parameter.maximum !== undefined && value > bound(parameter.maximum));
  }

  // Shows (or clears) a field's message beside it; true when the field is fine.
  function check(name, message) {
    const field = form.elements[name];
    if (!field || typeof field.setAttribute !== 'function') {
      return true;
    }
    const problem = message !== undefined ? message : problemWith(name);
    let note = document.getElementById(name + '-error');
    if (!note) {
      note = document.createElement('span');
      note.id = name + '-error';
      note.className = 'field-error';
      field.after(note);
      field.setAttribute('aria-describedby', note.id);
    }
    note.textContent = problem || '';
    note.hidden = !problem;
    if (problem) {
      field.setAttribute('aria-invalid', 'true');
    } else {
      field.removeAttribute('aria-invalid');
    }
    return !problem;
  }

  // Every shown field checked; the first one wrong gets the focus, in view.
  function allValid() {
    const wrong = CHECKED.filter((name) => !check(name));
    if (wrong.length) {
      const field = form.elements[wrong[0]];
      reach(field);
      field.focus();
      field.scrollIntoView({ block: 'center' });
    }
    return wrong.length === 0;
  }

  function body() {
    const selected = kind();
    const value = (name) => form.elements[name].value.trim();
    const number = (name) => (value(name) === '' ? undefined : Number(value(name)));
    const request = { kind: selected, operation: value('operation'), count: number('count') };
    if (selected === 'single') {
      request.mode = value('mode');
    }
    ['batchSize', 'valueSize', 'requests', 'rate', 'duration', 'rtt'].forEach((name) => {
      if (number(name) !== undefined) {
        request[name] = number(name);
      }
    });
    const jedis = selected !== 'compare' && value('connector') === 'jedis';
    if (value('flushPolicy') !== '' && !jedis) {
      request.flushPolicy = value('flushPolicy');
    }
    if (number('clients') !== undefined && number('clients') !== 1) {
      request.clients = number('clients');
    }
    // Sent whatever the kind: the server refuses a comparison or sweep of several instances, and its words show
    // beside the field (markInvalid) rather than the field being dropped.
    if (number('instances') !== undefined && number('instances') !== 1) {
      request.instances = number('instances');
    }
    if (jedis) {
      request.connector = 'jedis';
    }
    const loopLike = ['loop', 'multi-key', 'multi-key-hashtag', 'script'];
    if (value('connection') !== '' && (selected === 'compare' || (selected === 'single' && loopLike.includes(value('mode'))))) {
      request.connection = value('connection');
    }
    if (value('operation') === 'mixed' && value('ratio') !== '') {
      request.ratio = value('ratio');
    }
    if (['set', 'get'].includes(value('operation'))) {
      ['keys', 'seed'].forEach((name) => {
        if (number(name) !== undefined) {
          // Past 2^53 a number is rounded: the digits go into the JSON as typed (see exactly()).
          request[name] = Number.isSafeInteger(number(name)) ? number(name) : EXACT + value(name);
        }
      });
      if (value('pattern') !== '') {
        request.pattern = value('pattern');
      }
    }
    if (selected !== 'single' && number('repeat') !== undefined) {
      request.repeat = number('repeat');
    }
    if (selected === 'compare') {
      request.variants = Array.from(form.querySelectorAll('input[name="variants"]:checked')).map((box) => box.value);
    }
    if (selected === 'sweep') {
      request.batchSizes = value('batchSizes').split(',').map((size) => size.trim()).filter((size) => size !== '')
        .map(Number);
    }
    return request;
  }

  // A problem the server found in a field: beside that field, like the page's own.
  function markInvalid(parameter, detail) {
    CHECKED.forEach((name) => check(name, null));
    form.querySelectorAll('[aria-invalid]').forEach((element) => element.removeAttribute('aria-invalid'));
    const field = parameter && form.elements[parameter];
    if (field && typeof field.setAttribute === 'function') {
      if (CHECKED.includes(parameter) && detail) {
        check(parameter, detail);
      }
      field.setAttribute('aria-invalid', 'true');
      reach(field);
      field.focus();
    }
  }

  // Digits a JSON number must carry exactly, past what JSON.stringify can write from a JavaScript number.
  const EXACT = '\u0000';
  function exactly(request) {
    return JSON.stringify(request).replace(/"\\u0000(-?[0-9]+)"/g, '$1');
  }

  // "Run again": a past run's request, as its record keeps it (defaults filled in), back in the form.
  function loadIntoForm(request) {
    form.querySelector('input[name="kind"][value="' + request.kind + '"]').checked = true;
    showFieldsFor(request.kind);
    const set = (name, value) => {
      const field = form.elements[name];
      if (field.tagName === 'SELECT') {
        field.value = Array.from(field.options).some((option) => option.value === String(value ?? '')) ? String(value ?? '') : field.options[0].value;
      } else {
        field.value = value == null ? '' : String(value);
      }
    };
    set('operation', request.operation);
    if (request.mode) set('mode', request.mode);
    set('count', request.count);
    set('batchSize', request.batchSize);
    set('flushPolicy', request.flushPolicy);
    set('valueSize', request.valueSize);
    set('requests', request.requests);
    set('clients', request.clients || 1);
    set('instances', request.instances || 1);
    set('rate', request.rate);
    set('duration', request.duration);
    set('rtt', request.rtt);
    set('repeat', request.repeat || 1);
    set('connector', request.connector || 'lettuce');
    set('connection', request.connection);
    set('ratio', request.ratio);
    set('keys', request.keys);
    set('pattern', request.pattern === 'sequential' ? '' : request.pattern);
    set('seed', request.seed);
    showFieldsForOperation();
    if (request.variants) {
      form.querySelectorAll('input[name="variants"]').forEach((box) => { box.checked = request.variants.includes(box.value); });
    }
    if (request.batchSizes) {
      set('batchSizes', request.batchSizes.join(','));
    }
    CHECKED.forEach((name) => check(name));
    more.open = true;
    form.scrollIntoView({ block: 'start' });
    runButton.focus({ preventScroll: true });
  }

  // ---- running ----------------------------------------------------------------------------------------------

  async function start(event) {
    event.preventDefault();
    showProblem(null);
    // Nothing is sent until every field holds what the server accepts.
    if (!allValid()) {
      return;
    }
    const request = body();
    runButton.disabled = true;
    try {
      const response = await fetch('/runs', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: exactly(request),
      });
      const answer = await response.json();
      if (response.status !== 202) {
        const retry = response.headers.get('Retry-After');
        showProblem(answer, retry ? ' Try again in ' + retry + ' s.' : '');
        markInvalid(answer.parameter, answer.detail);
        runButton.disabled = false;
        return;
      }
      hideResults();
      follow(answer);
      say('Run started: ' + describe(answer.request) + '.');
      // Run is disabled now: the keyboard's next move is Cancel.
      cancelButton.focus();
      // On a phone the progress panel is below the form: bring it up to the Run button's user.
      reveal(progress.closest('section'));
    } catch (failure) {
      showProblem({ title: 'Cannot reach the app', detail: String(failure) });
      runButton.disabled = false;
    }
  }

  // Progress arrives as Server-Sent Events, each the run's whole record; the stream ends with a final status.
  function follow(record, reconnects) {
    stopFollowing();
    const events = new EventSource('/runs/' + record.id + '/events');
    current = { id: record.id, events, reconnects: reconnects || 0 };
    cancelButton.disabled = false;
    runButton.disabled = true;
    showProgress(record);
    if (timeline.id !== record.id) {
      timeline = { id: record.id, points: [] };
    }
    events.addEventListener('run', (message) => {
      const update = JSON.parse(message.data, exactNumbers);
      const p = update.progress;
      if (p.elapsedSeconds != null && p.opsPerSecond != null && !FINAL.includes(update.status)) {
        timeline.points.push({ t: p.elapsedSeconds, ops: p.opsPerSecond, phase: p.phase || '' });
      }
      showProgress(update);
      if (FINAL.includes(update.status)) {
        finished(update);
      }
    });
    events.onerror = () => {
      // The stream closed (the server restarted, a proxy cut it, the record vanished): read the record once instead
      // of letting EventSource reconnect forever, and end the run on the page when the app no longer has it.
      if (current && current.events === events) {
        events.close();
        recheck(record.id);
      }
    };
    loadHistory();
  }

  async function recheck(id) {
    let response;
    try {
      response = await fetch('/runs/' + id, { headers: { Accept: 'application/json' }, cache: 'no-store' });
    } catch (failure) {
      lost(id, 'the app does not answer (' + failure.message + ')');
      return;
    }
    if (response.status === 404) {
      lost(id, 'the app no longer has this run: Redis restarted or lost its record, and the instance that ran it'
        + ' is gone');
      return;
    }
    if (!response.ok) {
      const problem = await response.json().catch(() => ({}));
      lost(id, (problem.title || 'HTTP ' + response.status) + (problem.detail ? ': ' + problem.detail : ''));
      return;
    }
    const latest = await response.json();
    if (FINAL.includes(latest.status)) {
      showProgress(latest);
      finished(latest);
    } else if (current && current.id === id && ++current.reconnects <= 3) {
      follow(latest, current.reconnects);
    } else {
      lost(id, 'its progress stream keeps closing while the run says ' + latest.status);
    }
  }

  // A run the page can no longer follow ends here, with the reason, so Run is usable again.
  function lost(id, why) {
    if (!current || current.id !== id) {
      return;
    }
    stopFollowing();
    progress.dataset.status = 'LOST';
    statusLine.dataset.status = 'LOST';
    statusLine.textContent = 'LOST · ' + why;
    say('Run lost: ' + why);
    showProblem({ title: 'Run lost', detail: why });
    loadHistory();
  }

  // The end of a run this page followed: said once, its summary brought into view, and the focus where the
  // keyboard can go on (the summary after a result, Run otherwise) when it was on a button the end disabled.
  function finished(record) {
    const focus = document.activeElement;
    const stranded = !focus || focus === document.body || focus === cancelButton || focus === statusLine;
    stopFollowing();
    if (record.status === 'DONE') {
      showResults(record);
      const summary = summaryLine();
      say('Run finished. ' + summary.textContent);
      // The answer at the top of the window, the table's header right under it.
      summary.scrollIntoView({ block: 'start' });
      if (stranded) {
        summary.focus({ preventScroll: true });
      }
    } else {
      if (record.problem) {
        showProblem(record.problem);
      }
      say('Run ' + record.status.toLowerCase() + (record.problem ? ': ' + record.problem.title : '') + '.');
      if (stranded) {
        runButton.focus();
      }
    }
    loadHistory();
  }

  // The sentence that answers the run: the server's summary, or what ran where when there is none.
  function summaryLine() {
    const summary = document.getElementById('comparison-summary');
    return summary.textContent ? summary : document.getElementById('results-summary');
  }

  // The live region speaks when its text changes: start, end, a past run opened, a recipe opened.
  function say(text) {
    if (announcer.textContent !== text) {
      announcer.textContent = text;
    }
  }

  function stopFollowing() {
    if (current) {
      current.events.close();
    }
    current = null;
    cancelButton.disabled = true;
    runButton.disabled = false;
  }

  async function cancel() {
    if (!current) {
      return;
    }
    cancelButton.disabled = true;
    // The button just disabled itself: the status line says what happens next, and the end brings focus to Run.
    statusLine.focus();
    const id = current.id;
    let response;
    try {
      response = await fetch('/runs/' + id, { method: 'DELETE', headers: { Accept: 'application/json' } });
    } catch (failure) {
      lost(id, 'the app does not answer (' + failure.message + ')');
      return;
    }
    if (response.status === 404 || response.status >= 500) {
      recheck(id);
    } else if (response.status !== 202 && response.status !== 409) {
      showProblem(await response.json());
      cancelButton.disabled = false;
    }
  }

  function showProgress(record) {
    const p = record.progress;
    const percent = record.status === 'DONE' ? 100 : Math.floor(p.percent);
    progress.setAttribute('aria-valuenow', String(percent));
    progress.dataset.status = record.status;
    progressBar.style.width = percent + '%';
    progressText.textContent = percent + '%';
    const listed = document.querySelector('#history tr[data-id="' + record.id + '"]');
    if (listed) {
      listed.querySelector('.status-cell').textContent = record.status;
      listed.querySelector('.status-cell').className = 'status-cell st-' + record.status;
      listed.querySelector('.progress-cell').textContent = percent + '%';
    }
    // What the run is doing, in time: phase, elapsed, live rate and what is left, rather than batches.
    const parts = [record.status, describe(record.request)];
    if (p.phase && !FINAL.includes(record.status)) parts.push(p.phase);
    if (p.elapsedSeconds != null) parts.push(seconds(p.elapsedSeconds) + ' elapsed');
    if (p.opsPerSecond != null && !FINAL.includes(record.status)) parts.push(num(p.opsPerSecond) + ' ops/s now');
    if (p.remainingSeconds != null && !FINAL.includes(record.status)) parts.push('about ' + seconds(p.remainingSeconds) + ' left');
    if (record.cancelRequested && !FINAL.includes(record.status)) parts.push('cancelling…');
    if (record.problem && FINAL.includes(record.status)) parts.push(record.problem.title);
    statusLine.dataset.status = record.status;
    // Not announced: it changes every 0.2 s. The live region says the start, the end and the result (say()).
    statusLine.textContent = parts.join(' · ');
  }

  // Scrolls an element into view when it is not, e.g. below the fold of a phone after pressing Run.
  function reveal(element) {
    const box = element.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) {
      element.scrollIntoView({ block: box.height > window.innerHeight ? 'start' : 'nearest' });
    }
  }

  function seconds(value) {
    if (value < 60) return decimal.format(value) + ' s';
    return Math.floor(value / 60) + ' min ' + Math.round(value % 60) + ' s';
  }

  function describe(request) {
    const what = request.kind === 'single' ? request.operation.toUpperCase() + ' ' + request.mode
      : request.kind + ' ' + request.operation.toUpperCase();
    return what + ', ' + whole.format(request.count) + ' commands'
      + (request.duration != null ? ' or ' + request.duration + ' s, whichever comes first' : '')
      + (request.rate != null ? ' at ' + whole.format(request.rate) + ' commands/s' : '')
      + (request.keys != null || request.pattern != null
        ? ' over ' + whole.format(request.keys ?? request.count) + ' keys, ' + (request.pattern || 'sequential')
          + (request.seed != null ? ' (seed ' + request.seed + ')' : '')
        : '');
  }

  function showProblem(problem, suffix) {
    if (!problem) {
      problemBox.hidden = true;
      problemBox.textContent = '';
      return;
    }
    problemBox.hidden = false;
    problemBox.textContent = (problem.title ? problem.title + ': ' : '') + (problem.detail || '') + (suffix || '');
    reveal(problemBox);
  }

  // ---- results ----------------------------------------------------------------------------------------------

  // Okabe and Ito's palette, told apart with the common colour-vision deficiencies; the loop, the baseline, grey.
  // One colour per result, the same in every chart of the run (recipes.js's projection chart too).
  const PALETTE = ['#E69F00', '#56B4E9', '#009E73', '#0072B2', '#D55E00', '#CC79A7', '#000000', '#F0E442'];
  const LOOP_COLOR = '#999999';
  let colors = new Map();

  function paint(runKind, rows) {
    colors = new Map();
    let next = 0;
    rows.forEach((result) => {
      colors.set(result, runKind !== 'sweep' && result.mode === 'loop' ? LOOP_COLOR
        : PALETTE[next++ % PALETTE.length]);
    });
  }

  function colorOf(result) {
    return colors.get(result) || PALETTE[0];
  }

  // #rrggbb with an opacity, for the lighter bars of one result (its writes, its higher percentiles).
  function faded(color, opacity) {
    return color + Math.round(opacity * 255).toString(16).padStart(2, '0');
  }

  window.labColors = { of: colorOf, faded };

  // A legend for datasets whose bars take each result's colour: grey swatches, light as the bars are.
  function greyLegend(chartNow) {
    return chartNow.data.datasets.map((set, index) => ({
      text: set.label,
      fillStyle: faded('#555555', set.opacity || 1),
      strokeStyle: '#555555',
      lineWidth: 1,
      hidden: !chartNow.isDatasetVisible(index),
      datasetIndex: index,
    }));
  }

  function hideResults() {
    results.hidden = true;
    if (chart) {
      chart.destroy();
      chart = null;
    }
    if (latencyChart) {
      latencyChart.destroy();
      latencyChart = null;
    }
    serverCharts.forEach((each) => each.destroy());
    serverCharts = [];
    if (timelineChart) {
      timelineChart.destroy();
      timelineChart = null;
    }
  }

  // ops/s over the run's time, as the progress stream said it every 0.2 s: each point is the rate so far in the
  // phase then running (warm-up, preparing, timing a variant, verifying). Only for a run this page followed: the
  // record keeps the final figures, not the stream.
  function showTimeline(record) {
    const box = document.getElementById('timeline-box');
    const points = timeline.id === record.id ? timeline.points : [];
    box.hidden = points.length < 2;
    if (timelineChart) {
      timelineChart.destroy();
      timelineChart = null;
    }
    if (box.hidden) {
      return;
    }
    timelineChart = new Chart(document.getElementById('timeline-chart'), {
      type: 'line',
      data: { datasets: [{ label: 'ops/s so far in the phase', data: points.map((point) => ({ x: point.t, y: point.ops })),
        borderColor: PALETTE[3], backgroundColor: PALETTE[3], pointRadius: 1.5, tension: 0 }] },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        plugins: {
          title: { display: true, text: "ops/s over the run's time (as the progress stream reported it)" },
          legend: { display: false },
          tooltip: { callbacks: { label: (item) => num(item.raw.y) + ' ops/s · ' + points[item.dataIndex].phase } },
        },
        scales: {
          x: { type: 'linear', title: { display: true, text: 'seconds since the run started' } },
          y: axis(points.map((point) => point.ops), 'ops/s'),
        },
      },
    });
  }

  // Speedups and ratios to three significant digits: 45.5×, 1.23×, 0.981×.
  function ratio(value) {
    return value == null ? '' : Number(value.toPrecision(3)).toLocaleString('en-US', { maximumFractionDigits: 3 }) + '×';
  }

  function millis(value) {
    return value == null ? '' : value >= 100 ? decimal.format(value) : String(Number(value.toPrecision(3)));
  }

  // One column list for the results table; each cell also carries its header for the narrow (card) layout.
  // The latency table's headers, for the labelled cards it becomes on a narrow screen.
  const LATENCY_LABELS = Array.from(document.querySelectorAll('#latency-table thead th'), (th) => th.textContent);

  const COLUMNS = [
    { label: 'Variant', value: (r) => label(r) },
    { label: 'Batch size', value: (r) => num(r.batchSize), numeric: true },
    { label: 'Round trips', value: (r) => num(r.batches), numeric: true },
    { label: 'Elapsed ms', value: (r) => millis(r.elapsedMillis), numeric: true },
    // A time limit: the commands that ran before it (or all of them, when the count came first).
    { label: 'Commands ran', value: (r) => (r.timeLimit ? num(r.timeLimit.commandsRan)
      + (r.timeLimit.endedRun ? ' (time up)' : '') : ''), numeric: true },
    // Records from before ops/s carried its spread; passes by time all last their limit, so their times say nothing.
    { label: 'Min–max ms', value: (r) => (r.repeatMillis && r.opsPerSecondMin == null
      ? millis(Math.min(...r.repeatMillis)) + '–' + millis(Math.max(...r.repeatMillis)) : ''), numeric: true },
    // A median of passes, with the slowest and fastest under it when repeated: "123,456 (110,000–130,000)".
    { label: 'ops/s', value: (r) => spread(num(r.opsPerSecond), r.opsPerSecondMin, r.opsPerSecondMax, num),
      numeric: true },
    { label: 'Speedup', value: (r) => spread(ratio(r.speedup), r.speedupMin, r.speedupMax, ratio), numeric: true },
    { label: 'RTT ms', value: (r) => millis(r.measuredRttMillis), numeric: true },
    { label: 'Added RTT ms', value: (r) => millis(r.addedRttMillis), numeric: true },
    // What Redis itself did: INFO deltas around the timed pass, server-wide, per item sent (as the server charts),
    // since one MSET of 500 keys is one command: per command, multi-key looked 5,000 times costlier.
    { label: 'Server reads/item', value: (r) => serverNumber(serverReadsPerItem(r)), numeric: true },
    { label: 'Server CPU µs/item', value: (r) => serverNumber(serverCpuPerItem(r)), numeric: true },
    { label: 'Checked', value: (r) => checked(r) },
  ];

  function showResults(record) {
    const rows = record.results || [];
    results.hidden = false;
    results.dataset.id = record.id;
    document.getElementById('results-summary').textContent = describe(record.request) + ' on '
      + (rows[0] ? rows[0].topology : 'Redis') + ' · run ' + record.id + ' · finished ' + when(record.finishedAt)
      + (record.progress.elapsedSeconds != null ? ' · took ' + seconds(record.progress.elapsedSeconds) : '');
    const shown = COLUMNS.filter((column) => rows.some((result) => column.value(result) !== ''));
    document.querySelector('#results-table thead').replaceChildren(headerRow(shown.map((c) => c.label),
      shown.map((c) => c.numeric)));
    document.querySelector('#results-table tbody').replaceChildren(...rows.map((result) => {
      const tr = row(shown.map((column) => column.value(result)), shown.map((column) => column.numeric),
        shown.map((column) => column.label));
      if (result.foreignCommands != null) {
        tr.classList.add('foreign');
        tr.title = foreignWarning(result);
      }
      if (evicted(result)) {
        tr.classList.add('foreign');
        tr.title = [tr.title, evictionWarning(result)].filter(Boolean).join(' ');
      }
      return tr;
    }));
    document.getElementById('context').textContent = context(record, rows);
    showFleet(record.fleet);
    // Computed by the server from the figures above, never a canned claim: the comparison and the loop's ceiling,
    // the same sentence as /compare's summary and the text and Markdown downloads.
    document.getElementById('comparison-summary').textContent = record.summary || '';
    const skipped = record.skipped || [];
    document.getElementById('skipped').textContent = skipped.length
      ? 'Skipped: ' + skipped.map((skip) => skip.variant + ' (' + skip.reason + ')').join('; ') : '';
    // Notes explain what numbers alone do not, e.g. how a cluster split a multi-key command.
    document.getElementById('notes').replaceChildren(...rows.filter((result) => result.note).map((result) => {
      const item = document.createElement('li');
      item.textContent = result.variant + ': ' + result.note;
      return item;
    }));
    showLimitedBy(rows);
    exportLinks(record);
    paint(record.kind, rows);
    draw(record.kind, rows);
    showLatency(record.kind, rows);
    showServer(record.kind, rows);
    showTimeline(record);
    if (window.takeHome) {
      window.takeHome.show(record); // recipes.js: recipes, recommendation, RTT projection
    }
  }

  // What held each variant back (limitedBy: client, server, network, rate or undetermined), one line each, in the
  // server's own sentence; the list is made under the notes the first time.
  function showLimitedBy(rows) {
    let list = document.getElementById('limited-by');
    if (!list) {
      list = document.createElement('ul');
      list.id = 'limited-by';
      list.className = 'muted';
      document.getElementById('notes').after(list);
    }
    list.replaceChildren(...rows.filter((result) => result.limitedBy).map((result) => {
      const item = document.createElement('li');
      item.textContent = result.variant + (result.batchSize > 1 ? ' (batch ' + result.batchSize + ')' : '') + ': '
        + result.limitedBy.sentence;
      return item;
    }));
  }

  // What Redis itself did per item the run sent, one chart per unit: socket calls (reads and writes share the
  // unit, so one axis) and CPU microseconds. Per item rather than per command, as one MGET of 500 keys is one
  // command: so variants compare like for like. Bars per variant (sweep: per batch size), on a log axis when the
  // values span more than a factor of 20, as a loop's 1 read per item and a pipeline's 0.002 do.
  function showServer(runKind, rows) {
    serverCharts.forEach((each) => each.destroy());
    serverCharts = [];
    const measured = rows.filter((result) => result.server && result.server.commands > 0);
    const name = (result) => (runKind === 'sweep' ? 'batch ' + whole.format(result.batchSize) : label(result));
    const callsData = [
      { label: 'reads per item', data: measured.map(serverReadsPerItem), backgroundColor: measured.map(colorOf),
        opacity: 1 },
      { label: 'writes per item', data: measured.map((result) => perItem(result, result.server.writes)),
        backgroundColor: measured.map((result) => faded(colorOf(result), 0.45)), opacity: 0.45 },
    ];
    const cpu = measured.map(serverCpuPerItem);
    const charts = [
      ['server-calls-chart', 'Server socket calls per item (lower is better)', callsData,
        'read() / write() calls per item'],
      ['server-cpu-chart', 'Server CPU per item, µs (lower is better)',
        [{ label: 'CPU µs per item', data: cpu, backgroundColor: measured.map(colorOf) }], 'CPU µs per item'],
    ];
    charts.forEach(([id, title, datasets, unit]) => {
      const canvas = document.getElementById(id);
      const values = datasets.flatMap((set) => set.data).filter((value) => value != null && value > 0);
      const chartNow = new Chart(canvas, {
        type: 'bar',
        data: { labels: measured.map(name), datasets },
        options: barsPerVariant({
          title: { display: true, text: title },
          legend: { display: datasets.length > 1, position: 'bottom', labels: { generateLabels: greyLegend } },
          tooltip: { callbacks: { label: (item) => item.dataset.label + ': ' + serverNumber(item.raw) } },
        }, serverAxis(values, unit)),
      });
      canvas.dataset.chart = 'server';
      canvas.parentElement.style.height = Math.max(12, 5 + 2.2 * measured.length * datasets.length) + 'rem';
      serverCharts.push(chartNow);
    });
  }

  // The options of a chart with a horizontal bar per variant (the server and latency charts): its height is set
  // from the variants, so the chart fills it, and every variant keeps its label.
  function barsPerVariant(plugins, xAxis) {
    return {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      indexAxis: 'y',
      plugins,
      scales: {
        x: xAxis,
        y: variantAxis(),
      },
    };
  }

  // On a phone a long variant name would take the plot's width or be cut at the edge: it wraps at its dashes.
  function variantAxis() {
    return { ticks: { autoSkip: false, callback(value) { return narrowLabel(this.getLabelForValue(value), this.chart); } } };
  }

  function narrowLabel(label, chart) {
    if (chart.width >= 560 || label.length <= 16) return label;
    const lines = [];
    for (const part of label.split(/(?<=-)/)) {
      const last = lines.length - 1;
      if (last >= 0 && (lines[last] + part).length <= 16) lines[last] += part;
      else lines.push(part);
    }
    return lines;
  }

  // Like the throughput axis, but for figures below 1 (0.002 reads per command): a log axis from the power of ten
  // below the smallest value, labelled at 1, 2 and 5 times powers of ten.
  function serverAxis(values, unit) {
    const scale = axis(values, unit);
    if (scale.type === 'logarithmic') {
      scale.ticks.callback = (value) => {
        const mantissa = value / 10 ** Math.floor(Math.log10(value) + 1e-9);
        return [1, 2, 5].some((shown) => Math.abs(mantissa - shown) < 1e-6) ? serverNumber(value) : '';
      };
    } else {
      scale.ticks.callback = (value) => serverNumber(value);
    }
    return scale;
  }

  function serverNumber(value) {
    return value == null ? '' : Number(value.toPrecision(3)).toLocaleString('en-US', { maximumFractionDigits: 6 });
  }

  function foreignWarning(result) {
    return '⚠ ' + result.variant + ': the server processed ' + num(result.foreignCommands) + ' commands beyond the'
      + " run's own during its timed pass: another client was busy on the same Redis, so these figures measure it"
      + ' too.';
  }

  function evicted(result) {
    return result.server != null && result.server.evictedKeys > 0;
  }

  function evictionWarning(result) {
    return '⚠ ' + result.variant + ': Redis evicted ' + num(result.server.evictedKeys) + ' keys during this run to'
      + ' stay under maxmemory: keys that are not the lab\'s may be among them.';
  }

  // Latency percentiles beside throughput: a table of what was measured (per command, batch or request), and a
  // chart per item on a log axis. A loop's sample is one command and a pipeline's a batch of 10,000: on one axis
  // pipelines looked 1,000 times slower, so the chart divides each sample by the items it carried.
  function showLatency(runKind, rows) {
    const measured = rows.filter((result) => result.latency);
    const ms = (value) => (value == null ? '' : value.toFixed(3));
    const label = (result) => (runKind === 'sweep' ? 'batch ' + whole.format(result.batchSize) : result.variant);
    document.querySelector('#latency-table tbody').replaceChildren(...measured.map((result) => row([
      label(result), result.latency.per, num(result.latency.samples), ms(result.latency.p50), ms(result.latency.p90),
      ms(result.latency.p99), ms(result.latency.p999), ms(result.latency.max),
      result.payload ? decimal.format(result.payload.bytesPerSecond / 1e6) : '',
    ], [false, false, true, true, true, true, true, true, true], LATENCY_LABELS)));
    const canvas = document.getElementById('latency-chart');
    if (latencyChart) {
      latencyChart.destroy();
    }
    // Each result in its own colour, lighter from p50 to max.
    const percentiles = [['p50', 1], ['p90', 0.75], ['p99', 0.55], ['p999', 0.4], ['max', 0.25]];
    latencyChart = new Chart(canvas, {
      type: 'bar',
      data: {
        labels: measured.map(label),
        datasets: percentiles.map(([key, opacity]) => ({
          label: (key === 'p999' ? 'p99.9' : key),
          data: measured.map((result) => Math.max(result.latency[key] / itemsPerSample(result), 1e-6)),
          backgroundColor: measured.map((result) => faded(colorOf(result), opacity)),
          opacity,
        })),
      },
      options: barsPerVariant({
        title: { display: true, text: 'Latency per item, ms (a round trip divided by the items it carried; lower is'
          + ' better)' },
        legend: { position: 'bottom', labels: { generateLabels: greyLegend } },
        tooltip: { callbacks: { label: (item) => item.dataset.label + ': ' + serverNumber(item.raw) + ' ms per item' } },
      }, serverAxis(measured.flatMap((result) => percentiles.map(([key]) => Math.max(result.latency[key]
        / itemsPerSample(result), 1e-6))), 'ms per item')),
    });
    canvas.dataset.chart = 'latency';
    // Horizontal bars: the height grows with the variants, so a phone shows them as tall as a wide screen.
    canvas.parentElement.style.height = Math.max(16, 6 + 4.2 * measured.length) + 'rem';
  }

  // Items one latency sample carried: a command's 1, a batch's batch size, a request's whole count.
  function itemsPerSample(result) {
    const per = result.latency.per;
    return per === 'batch' ? Math.max(1, result.batchSize) : per === 'request' ? Math.max(1, result.count) : 1;
  }

  // The variant plus who sent it, when that is not Spring Boot's default (Lettuce, shared connection, one client).
  function label(result) {
    const parts = [result.variant];
    const connector = result.connector;
    if (connector && !result.variant.startsWith(connector.name) && connector.name !== 'lettuce') {
      parts.push(connector.name);
    }
    const sharable = ['loop', 'multi-key', 'multi-key-hashtag', 'script'].includes(result.mode);
    if (connector && connector.name === 'lettuce' && sharable && connector.connection === 'pooled') {
      parts.push('pooled');
    }
    if (result.clients) {
      parts.push(result.clients.count + ' clients');
    }
    return parts.join(' · ');
  }

  // What Redis itself did (INFO deltas around the timed pass, server-wide), per item the run sent: one figure, one
  // unit, for the table and the charts alike.
  function items(result) {
    return result.timeLimit ? result.timeLimit.commandsRan : result.count * (result.fanOut ? result.fanOut.requests : 1);
  }

  function perItem(result, value) {
    return value != null && result.server && result.server.commands > 0 ? value / items(result) : null;
  }

  function serverReadsPerItem(result) {
    return result.server ? perItem(result, result.server.reads) : null;
  }

  function serverCpuPerItem(result) {
    const server = result.server;
    return server && server.cpuMicrosPerCommand != null
      ? perItem(result, server.cpuMicrosPerCommand * server.commands) : null;
  }

  // What the figures were measured on, and what to mind reading them. The loop's ceiling is the server's sentence
  // (record.summary, shown below), from the loop's own round trips, so the page never prints a second one.
  function context(record, rows) {
    const parts = [];
    if (rows.some((result) => result.repeatMillis)) {
      parts.push('Elapsed is the median of ' + rows[0].repeat + ' timed passes; min–max shows their spread.');
    }
    const env = record.environment;
    const connectors = [...new Set(rows.map((result) => result.connector && result.connector.name)
      .filter((name) => name))];
    if (env) {
      parts.push('Redis ' + (env.redisVersion || '?') + ' (' + env.topology + ') · '
        + (connectors.length ? (connectors.length > 1 ? 'connectors ' : 'connector ') + connectors.join(', ') + ' · '
          : '')
        + env.jvm + ' · ' + env.cores + ' cores · default flush policy ' + env.flushPolicy + ', writes ' + env.writes
        + '.');
    }
    if (record.overlapped) {
      parts.push('⚠ Another run of this app was measuring at the same time: these figures measure each other too.');
    }
    const held = rows.map((result) => result.server).find((server) => server && server.keyCount && server.usedMemoryBytes);
    if (held) {
      const mb = (bytes) => (bytes / 1048576).toFixed(1) + ' MB';
      parts.push('Redis before the run: ' + num(held.keyCount.before) + ' keys, ' + mb(held.usedMemoryBytes.before)
        + '; after it: ' + num(held.keyCount.after) + ' keys, ' + mb(held.usedMemoryBytes.after)
        + ' (every client\'s keys, over the masters).');
    }
    rows.filter((result) => result.foreignCommands != null).forEach((result) => parts.push(foreignWarning(result)));
    rows.filter(evicted).forEach((result) => parts.push(evictionWarning(result)));
    return parts.join(' ');
  }

  // A fleet run's members, one line each: what share each sent, at what rate, what it verified, and who stopped.
  function showFleet(fleet) {
    const list = document.getElementById('fleet');
    list.hidden = !fleet;
    list.replaceChildren(...(fleet ? fleet.members : []).map((member) => {
      const item = document.createElement('li');
      item.className = 'fleet-member';
      item.textContent = [member.instance,
        member.share ? 'items ' + num(member.share.from) + ' to ' + num(member.share.to - 1) : 'joining',
        member.opsPerSecond != null ? num(member.opsPerSecond) + ' ops/s' : '',
        member.verified != null ? num(member.verified) + ' verified' : '',
        member.startSkewMillis != null ? 'started ' + millis(member.startSkewMillis) + ' ms after the first' : '',
        member.stopped ? 'stopped: ' + member.stopped : '',
      ].filter(Boolean).join(' · ');
      return item;
    }));
    if (fleet) {
      list.prepend(Object.assign(document.createElement('li'), {
        textContent: 'Fleet: ' + fleet.instances + ' of ' + fleet.asked + ' instances asked'
          + (fleet.partial ? ' (partial)' : '') + ':',
      }));
    }
  }

  // The run's round trip for the history: the loop's own where one ran (the figure its ceiling and projection use),
  // else the median of its rows'; an RTT the relay added is said beside it.
  function roundTrip(record) {
    const rows = record.results || [];
    const loop = rows.find((result) => result.mode === 'loop');
    const measured = loop ? loop.measuredRttMillis : medianRtt(rows);
    return [measured > 0 ? millis(measured) : '', record.request.rtt != null ? '+' + record.request.rtt + ' added'
      : ''].filter(Boolean).join(' ');
  }

  // Each run measures its RTT with a few PINGs just before it; on a busy machine one of them can be far off, so a
  // figure drawn from several runs uses their median.
  function medianRtt(rows) {
    const rtts = rows.map((result) => result.measuredRttMillis).filter((rtt) => rtt > 0).sort((a, b) => a - b);
    if (!rtts.length) return 0;
    const middle = Math.floor(rtts.length / 2);
    return rtts.length % 2 ? rtts[middle] : (rtts[middle - 1] + rtts[middle]) / 2;
  }

  function exportLinks(record) {
    const base = '/runs/' + record.id + '/report.';
    const links = [['json', 'JSON'], ['csv', 'CSV'], ['md', 'Markdown'], ['txt', 'Text']].map(([ext, label]) => {
      const link = document.createElement('a');
      link.href = base + ext;
      link.textContent = label;
      link.setAttribute('download', '');
      link.dataset.format = ext;
      return link;
    });
    const permalink = document.createElement('a');
    permalink.href = '/?run=' + record.id;
    permalink.textContent = 'Permalink';
    permalink.id = 'permalink';
    const again = document.createElement('button');
    again.type = 'button';
    again.id = 'run-again';
    again.className = 'small';
    again.textContent = 'Load into the form';
    again.title = "this run's settings, back in the form, to run again or change one";
    again.addEventListener('click', () => loadIntoForm(record.request));
    const box = document.getElementById('exports');
    box.replaceChildren(document.createTextNode('Download: '));
    links.forEach((link) => box.append(link, ' '));
    box.append('· ', permalink, ' · ', again);
  }

  function checked(result) {
    if (result.verified != null) return num(result.verified) + ' verified';
    if (result.hits != null) return num(result.hits) + ' hits, ' + num(result.misses) + ' misses';
    if (result.popped != null) return num(result.popped) + ' popped, ' + num(result.empty) + ' empty';
    if (result.pongs != null) return num(result.pongs) + ' PONG';
    if (result.written != null) return num(result.written) + ' written';
    return '';
  }

  // One axis per chart. Variants: horizontal bars of ops/s, fastest first, on a log axis when they span more than
  // a factor of 20 (the loop is otherwise a sliver no one can read). Sweep: ops/s against batch size, both log, with
  // the loop's ceiling (1/RTT) as a dashed baseline.
  function draw(runKind, rows) {
    const canvas = document.getElementById('chart');
    if (chart) {
      chart.destroy();
    }
    const rates = rows.map((result) => result.opsPerSecond).filter((rate) => rate > 0);
    const valueAxis = axis(rates, 'ops/s');
    const common = {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
    };
    if (runKind === 'sweep') {
      // The round trip a loop would pay: the batch-of-1 run's own median when the sweep has one (what a PING burst
      // before the run measured can be far off), and no baseline at all if a run of one command per round trip
      // beat it.
      const single = rows.find((result) => result.batchSize === 1 && result.latency && result.latency.p50 > 0
        && result.latency.per !== 'request' && !result.clients && !result.fanOut);
      let rtt = single ? single.latency.p50 : medianRtt(rows);
      if (single && single.opsPerSecond > 1000 / rtt) {
        rtt = 0;
      }
      const sizes = rows.map((result) => result.batchSize);
      const datasets = [{
        label: 'pipelined ops/s',
        data: rows.map((result) => ({ x: result.batchSize, y: result.opsPerSecond })),
        borderColor: PALETTE[0],
        backgroundColor: PALETTE[0],
        tension: 0,
      }];
      if (rtt > 0) {
        datasets.push({
          label: 'loop at best (1/RTT = ' + num(1000 / rtt) + ' ops/s)',
          data: [{ x: Math.min(...sizes), y: 1000 / rtt }, { x: Math.max(...sizes), y: 1000 / rtt }],
          borderColor: LOOP_COLOR,
          borderDash: [6, 4],
          pointRadius: 0,
        });
      }
      const all = rates.concat(rtt > 0 ? [1000 / rtt] : []);
      chart = new Chart(canvas, {
        type: 'line',
        data: { datasets },
        options: {
          ...common,
          plugins: {
            title: { display: true, text: 'Pipelined throughput against batch size (higher is better)' },
            legend: { position: 'bottom' },
          },
          scales: {
            x: {
              type: 'logarithmic',
              title: { display: true, text: 'batch size (commands per round trip, log scale)' },
              // Label powers of ten only; a log axis otherwise labels every minor tick.
              ticks: { callback: (value) => (Number.isInteger(Math.log10(value)) ? compact(value) : '') },
            },
            y: axis(all, 'ops/s'),
          },
        },
      });
    } else {
      const sorted = rows.slice().sort((a, b) => b.opsPerSecond - a.opsPerSecond);
      chart = new Chart(canvas, {
        type: 'bar',
        data: {
          labels: sorted.map(label),
          datasets: [{
            label: 'ops/s',
            data: sorted.map((result) => result.opsPerSecond),
            backgroundColor: sorted.map(colorOf),
          }],
        },
        options: {
          ...common,
          indexAxis: 'y',
          plugins: {
            title: { display: true, text: 'Throughput by variant, ops/s (higher is better)' },
            legend: { display: false },
            tooltip: { callbacks: { label: (item) => num(item.raw) + ' ops/s' + (sorted[item.dataIndex].speedup != null
              ? ', ' + ratio(sorted[item.dataIndex].speedup) + ' the loop' : '') } },
          },
          scales: { x: valueAxis, y: variantAxis() },
        },
      });
      canvas.parentElement.style.height = Math.max(12, 4 + 2.6 * sorted.length) + 'rem';
    }
    canvas.dataset.chart = chart.config.type;
  }

  // A value axis: linear from zero, or logarithmic from the power of ten below the smallest value when the values
  // span more than a factor of 20, labelled at 1, 2 and 5 times powers of ten only.
  function axis(values, unit) {
    const positive = values.filter((value) => value > 0);
    const log = positive.length > 1 && Math.max(...positive) / Math.min(...positive) > 20;
    if (!log) {
      return { type: 'linear', beginAtZero: true, title: { display: true, text: unit },
        ticks: { callback: (value) => compact(value) } };
    }
    // The axis starts below the smallest value by at least half its decade: a bar at exactly a power of ten
    // would otherwise start and end at the axis and vanish.
    return {
      type: 'logarithmic',
      min: 10 ** Math.floor(Math.log10(Math.min(...positive) / 1.5)),
      title: { display: true, text: unit + ' (log scale)' },
      ticks: {
        callback: (value) => {
          const mantissa = value / 10 ** Math.floor(Math.log10(value) + 1e-9);
          return [1, 2, 5].some((shown) => Math.abs(mantissa - shown) < 1e-6) ? compact(value) : '';
        },
      },
    };
  }

  function compact(value) {
    return new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 }).format(value);
  }

  // ---- two runs side by side ----------------------------------------------------------------------------------

  async function showPair(a, b) {
    const response = await fetch('/runs/compare?a=' + encodeURIComponent(a) + '&b=' + encodeURIComponent(b),
      { headers: { Accept: 'application/json' }, cache: 'no-store' });
    const pair = await response.json();
    if (!response.ok) {
      showProblem(pair);
      return;
    }
    const section = document.getElementById('pair');
    section.hidden = false;
    // Named by what ran and when, not by id.
    const named = (side) => describe(side.request) + (side.finishedAt ? ', finished ' + when(side.finishedAt) : '');
    document.getElementById('pair-a').textContent = 'A: ' + named(pair.a);
    document.getElementById('pair-b').textContent = 'B: ' + named(pair.b);
    // What else differs between the two, and a run another disturbed: the server's words, above the ratios.
    const differ = document.getElementById('pair-differ');
    differ.hidden = !pair.warnings;
    differ.textContent = pair.warnings ? '⚠ ' + pair.warnings.join(' ') : '';
    const labels = ['Variant', 'Batch size', 'A ops/s', 'B ops/s', 'B/A ops/s', 'A ms', 'B ms', 'B/A ms'];
    const numeric = [false, true, true, true, true, true, true, true];
    document.querySelector('#pair-table tbody').replaceChildren(...pair.rows.map((r) => {
      const tr = row([r.variant, num(r.batchSize), num(r.aOpsPerSecond), num(r.bOpsPerSecond), ratio(r.opsRatio),
        millis(r.aElapsedMillis), millis(r.bElapsedMillis), ratio(r.elapsedRatio)], numeric, labels);
      // Green where B is faster, red where slower; grey, with a word, where the two differ only within the spread
      // of their own repeated passes.
      if (r.withinSpread) {
        tr.classList.add('within-spread');
        tr.title = 'within the spread of the repeats: the min-max of the passes overlap';
        tr.children[4].textContent += ' ≈';
      } else if (r.opsRatio != null && r.opsRatio !== 1) {
        tr.children[4].classList.add(r.opsRatio > 1 ? 'better' : 'worse');
        tr.children[7].classList.add(r.elapsedRatio < 1 ? 'better' : 'worse');
      }
      return tr;
    }));
    const link = document.getElementById('pair-permalink');
    link.href = '/?a=' + a + '&b=' + b;
    document.getElementById('pair-text').href = '/runs/compare?a=' + a + '&b=' + b;
    section.scrollIntoView();
  }

  // ---- history ----------------------------------------------------------------------------------------------

  async function loadHistory() {
    try {
      const response = await fetch('/runs?limit=20', { headers: { Accept: 'application/json' }, cache: 'no-store' });
      const list = await response.json().catch(() => ({}));
      if (!response.ok) {
        banner('Redis is unreachable, so the run history cannot be read: ' + (list.detail || 'HTTP ' + response.status));
        return;
      }
      banner(list.unavailable ? 'Redis is unreachable (' + list.unavailable + '); the history shows only the runs of'
        + ' this instance.' : null);
      const picked = new Set(Array.from(document.querySelectorAll('#history input[name=pick]:checked'))
        .map((box) => box.value));
      const labels = ['', 'Started', 'Kind', 'Operation', 'Count', 'Status', 'Progress', 'Best ops/s', 'RTT ms'];
      const tbody = document.querySelector('#history tbody');
      tbody.replaceChildren(...list.runs.map((record) => {
        const best = Math.max(0, ...(record.results || []).map((result) => result.opsPerSecond));
        const started = when(record.startedAt || record.createdAt);
        const what = record.kind + ' ' + record.request.operation.toUpperCase()
          + (record.request.mode ? ' ' + record.request.mode : '') + ', ' + num(record.request.count);
        const tr = row(['', '', record.kind,
          record.request.operation.toUpperCase() + (record.request.mode ? ' ' + record.request.mode : ''),
          num(record.request.count), record.status, Math.floor(record.progress.percent) + '%',
          best > 0 ? num(best) : '', roundTrip(record),
        ], [false, false, false, false, true, false, true, true, true], labels);
        tr.children[5].className = 'status-cell st-' + record.status;
        tr.children[6].classList.add('progress-cell');
        tr.dataset.id = record.id;
        // A link to the run's permalink: Tab reaches it, Enter opens it, and it can be opened in a new tab.
        const link = document.createElement('a');
        link.href = '/?run=' + record.id;
        link.textContent = started || record.id;
        link.setAttribute('aria-label', 'Show run of ' + (started || record.id) + ': ' + what + ', ' + record.status);
        link.addEventListener('click', (event) => {
          if (event.ctrlKey || event.metaKey || event.shiftKey) {
            return;
          }
          event.preventDefault();
          event.stopPropagation();
          show(record.id, true);
        });
        tr.children[1].appendChild(link);
        if (record.status === 'DONE') {
          const box = document.createElement('input');
          box.type = 'checkbox';
          box.name = 'pick';
          box.value = record.id;
          box.checked = picked.has(record.id);
          box.setAttribute('aria-label', 'Pick the run of ' + started + ' (' + what + ') for side by side');
          box.addEventListener('click', (event) => { event.stopPropagation(); pickChanged(); });
          tr.children[0].appendChild(box);
        }
        if (current && current.id === record.id) {
          tr.classList.add('current');
        }
        tr.addEventListener('click', () => show(record.id, true));
        return tr;
      }));
      pickChanged();
    } catch (failure) {
      banner('The app does not answer: ' + failure.message);
    }
  }

  function pickChanged() {
    const picked = document.querySelectorAll('#history input[name=pick]:checked');
    const button = document.getElementById('compare-picked');
    button.disabled = picked.length !== 2;
    button.textContent = 'Side by side (' + picked.length + ' of 2)';
  }

  // A run from the history or a permalink, whatever its status: shown, its permalink in the address bar (so Back
  // and a bookmark work), and said.
  async function show(id, picked) {
    const response = await fetch('/runs/' + id, { headers: { Accept: 'application/json' }, cache: 'no-store' });
    const record = JSON.parse(await response.text(), exactNumbers);
    if (!response.ok) {
      showProblem(record);
      return;
    }
    const permalink = '/?run=' + record.id;
    if (picked && window.location.pathname + window.location.search !== permalink) {
      window.history.pushState({ run: record.id }, '', permalink);
    }
    const named = 'the run of ' + when(record.startedAt || record.createdAt) + ': ' + describe(record.request)
      + ', ' + record.status;
    if (!FINAL.includes(record.status)) {
      hideResults();
      follow(record);
      say('Following ' + named + '.');
      return;
    }
    showProgress(record);
    showProblem(record.problem || null);
    // A cancelled or failed run shows what it finished before it stopped, when it finished anything.
    if ((record.results || []).length) {
      showResults(record);
      reveal(results);
      say('Showing ' + named + '. ' + summaryLine().textContent);
    } else {
      hideResults();
      reveal(statusLine);
      say('Showing ' + named + (record.problem ? ': ' + record.problem.title : '') + '; it has no results.');
    }
  }

  // ---- helpers ----------------------------------------------------------------------------------------------

  // Shown while Redis (or the app) is unreachable, and looked at again every few seconds until it is back.
  let bannerTimer = null;
  function banner(text) {
    const box = document.getElementById('banner');
    box.hidden = !text;
    box.textContent = text || '';
    if (text && !bannerTimer) {
      bannerTimer = setInterval(loadHistory, 3000);
    } else if (!text && bannerTimer) {
      clearInterval(bannerTimer);
      bannerTimer = null;
    }
  }

  // labels: each cell's column header, shown before the value when a narrow screen stacks a row as a card.
  // A figure and, on a smaller line under it, the range of its passes: the table stays as narrow as one figure.
  function spread(shown, min, max, format) {
    return shown !== '' && min != null && max != null
      ? { main: shown, under: ' ' + format(min) + '–' + format(max) } : shown;
  }

  function row(cells, numeric, labels) {
    const tr = document.createElement('tr');
    cells.forEach((text, index) => {
      const td = document.createElement('td');
      if (text !== null && typeof text === 'object') {
        td.textContent = text.main;
        const under = document.createElement('span');
        under.className = 'spread';
        under.textContent = text.under;
        td.appendChild(under);
      } else {
        td.textContent = text;
      }
      if (numeric[index]) {
        td.className = 'num';
      }
      if (labels && labels[index]) {
        td.dataset.label = labels[index];
      }
      tr.appendChild(td);
    });
    return tr;
  }

  function headerRow(labels, numeric) {
    const tr = document.createElement('tr');
    labels.forEach((label, index) => {
      const th = document.createElement('th');
      th.textContent = label;
      if (numeric[index]) th.className = 'num';
      tr.appendChild(th);
    });
    return tr;
  }

  function num(value) {
    return value == null ? '' : whole.format(value);
  }

  function when(instant) {
    return instant ? new Date(instant).toLocaleString() : '';
  }

  // Bounds and defaults come from the server's parameter catalogue (lab.limits.*), not from this page: the labels
  // show them next to each field, and the checks as typed use them.
  function showLimits(parameters) {
    parameters.forEach((parameter) => {
      catalogue[parameter.name] = parameter;
      const limits = form.querySelector('.limits[data-parameter="' + parameter.name + '"]');
      if (limits && parameter.minimum !== undefined && parameter.maximum !== undefined) {
        limits.textContent = (parameter.type === 'number' ? parameter.minimum : num(parameter.minimum)) + ' to '
          + num(parameter.maximum);
      }
      const field = form.querySelector('input#' + parameter.name);
      if (!field) {
        return;
      }
      const range = (parameter.minimum !== undefined) ? parameter.minimum + ' to ' + parameter.maximum : '';
      field.title = parameter.description + (range ? ' (' + range + ')' : '');
      // Short, so it fits the field: the range is beside the label.
      if (field.placeholder && parameter.default !== undefined) {
        field.placeholder = 'default ' + parameter.default;
      }
    });
    // What "pipelined" means here: lab.pipeline.flush-policy, the flush policy parameter's default.
    const policy = catalogue.flushPolicy && catalogue.flushPolicy.default;
    if (policy) {
      document.getElementById('app-policy-name').textContent = policy;
      document.getElementById('app-default-policy').textContent = 'app default (' + policy + ')';
    }
    // Fields typed before the catalogue arrived are checked against its bounds now.
    CHECKED.filter((name) => form.elements[name] && form.elements[name].value.trim() !== '').forEach((name) => check(name));
    const list = document.getElementById('query-parameters');
    if (list) {
      list.textContent = parameters.filter((parameter) => parameter.in === 'query')
        .map((parameter) => parameter.name).join(', ') + '.';
    }
  }

  // Whole numbers past 2^53 (the seed's maximum, 2^63 - 1) as BigInt from their digits, where the browser hands
  // a reviver the source text; a plain number would read 9,223,372,036,854,776,000.
  function exactNumbers(key, value, context) {
    return typeof value === 'number' && !Number.isSafeInteger(value) && Number.isInteger(value) && context
      && /^-?[0-9]+$/.test(context.source) ? BigInt(context.source) : value;
  }

  async function showTopology() {
    try {
      // no-store: the browser may hold this very URL as the HTML page, which does not vary by Accept.
      const response = await fetch('/', { headers: { Accept: 'application/json' }, cache: 'no-store' });
      const index = JSON.parse(await response.text(), exactNumbers);
      document.getElementById('topology').textContent = 'Set up for ' + index.topology.kind + ' Redis at '
        + index.topology.nodes.join(', ') + '.';
      forTopology(index.topology.kind);
      showLimits(index.parameters || []);
    } catch (failure) {
      // Only decoration.
    }
  }

  // Only what runs here is ticked: the cluster-only variants would be reported as skipped on any other Redis.
  function forTopology(topologyKind) {
    if (topologyKind === 'cluster') {
      return;
    }
    form.querySelectorAll('input[name="variants"][data-cluster]').forEach((box) => {
      box.checked = false;
    });
  }

  form.addEventListener('submit', start);
  form.querySelectorAll('input[name="kind"]').forEach((radio) => radio.addEventListener('change', () => {
    showFieldsFor(kind());
    CHECKED.forEach((name) => check(name));
  }));
  CHECKED.forEach((name) => form.elements[name].addEventListener('input', () => check(name)));
  document.getElementById('operation').addEventListener('change', showFieldsForOperation);
  cancelButton.addEventListener('click', cancel);
  document.getElementById('refresh-history').addEventListener('click', loadHistory);
  document.getElementById('compare-picked').addEventListener('click', () => {
    const picked = Array.from(document.querySelectorAll('#history input[name=pick]:checked')).map((box) => box.value);
    if (picked.length === 2) {
      // Oldest as A, so ratios read as "after / before".
      const rows = Array.from(document.querySelectorAll('#history tbody tr')).map((tr) => tr.dataset.id);
      picked.sort((x, y) => rows.indexOf(y) - rows.indexOf(x));
      showPair(picked[0], picked[1]);
    }
  });
  document.querySelectorAll('.origin').forEach((element) => { element.textContent = window.location.origin; });
  // Back and Forward between opened runs show them again.
  window.addEventListener('popstate', () => {
    const run = new URLSearchParams(window.location.search).get('run');
    if (run) {
      show(run, false);
    }
  });
  remembered();
  showFieldsFor(kind());
  showFieldsForOperation();
  showTopology();
  loadHistory();
  // Permalinks: /?run=<id> shows a run, /?a=<id>&b=<id> two runs side by side.
  const query = new URLSearchParams(window.location.search);
  if (query.get('run')) {
    show(query.get('run'));
  }
  if (query.get('a') && query.get('b')) {
    showPair(query.get('a'), query.get('b'));
  }
}());
