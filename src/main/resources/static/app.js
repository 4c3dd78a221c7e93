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

  let current = null; // { id, events } of the run this page follows
  let chart = null;

  // ---- form -------------------------------------------------------------------------------------------------

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

  function body() {
    const selected = kind();
    const value = (name) => form.elements[name].value.trim();
    const number = (name) => (value(name) === '' ? undefined : Number(value(name)));
    const request = { kind: selected, operation: value('operation'), count: number('count') };
    if (selected === 'single') {
      request.mode = value('mode');
    }
    if (number('batchSize') !== undefined) {
      request.batchSize = number('batchSize');
    }
    if (value('flushPolicy') !== '') {
      request.flushPolicy = value('flushPolicy');
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

  function markInvalid(parameter) {
    form.querySelectorAll('[aria-invalid]').forEach((element) => element.removeAttribute('aria-invalid'));
    const field = parameter && form.elements[parameter];
    if (field && typeof field.setAttribute === 'function') {
      field.setAttribute('aria-invalid', 'true');
      field.focus();
    }
  }

  // ---- running ----------------------------------------------------------------------------------------------

  async function start(event) {
    event.preventDefault();
    showProblem(null);
    markInvalid(null);
    runButton.disabled = true;
    try {
      const response = await fetch('/runs', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(body()),
      });
      const answer = await response.json();
      if (response.status !== 202) {
        const retry = response.headers.get('Retry-After');
        showProblem(answer, retry ? ' Try again in ' + retry + ' s.' : '');
        markInvalid(answer.parameter);
        runButton.disabled = false;
        return;
      }
      hideResults();
      follow(answer);
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
    events.addEventListener('run', (message) => {
      const update = JSON.parse(message.data);
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
    showProblem({ title: 'Run lost', detail: why });
    loadHistory();
  }

  function finished(record) {
    stopFollowing();
    if (record.status === 'DONE') {
      showResults(record);
    } else if (record.problem) {
      showProblem(record.problem);
    }
    loadHistory();
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
    const percent = record.status === 'DONE' ? 100 : Math.floor(record.progress.percent);
    progress.setAttribute('aria-valuenow', String(percent));
    progress.dataset.status = record.status;
    progressBar.style.width = percent + '%';
    progressText.textContent = percent + '%';
    const batches = record.progress.batchesTotal > 0
      ? whole.format(record.progress.batchesDone) + ' of ' + whole.format(record.progress.batchesTotal) + ' batches'
      : 'preparing';
    const listed = document.querySelector('#history tr[data-id="' + record.id + '"]');
    if (listed) {
      listed.children[4].textContent = record.status;
      listed.children[4].className = 'st-' + record.status;
      listed.children[5].textContent = Math.floor(record.progress.percent) + '%';
    }
    statusLine.dataset.status = record.status;
    statusLine.textContent = record.status + ' · ' + describe(record.request) + ' · ' + batches
      + (record.cancelRequested && !FINAL.includes(record.status) ? ' · cancelling…' : '');
  }

  function describe(request) {
    const what = request.kind === 'single' ? request.operation.toUpperCase() + ' ' + request.mode
      : request.kind + ' ' + request.operation.toUpperCase();
    return what + ', ' + whole.format(request.count) + ' commands';
  }

  function showProblem(problem, suffix) {
    if (!problem) {
      problemBox.hidden = true;
      problemBox.textContent = '';
      return;
    }
    problemBox.hidden = false;
    problemBox.textContent = (problem.title ? problem.title + ': ' : '') + (problem.detail || '') + (suffix || '');
  }

  // ---- results ----------------------------------------------------------------------------------------------

  function hideResults() {
    results.hidden = true;
    if (chart) {
      chart.destroy();
      chart = null;
    }
  }

  function showResults(record) {
    const rows = record.results || [];
    results.hidden = false;
    document.getElementById('results-summary').textContent = describe(record.request) + ' on '
      + (rows[0] ? rows[0].topology : 'Redis') + ' · run ' + record.id + ' · finished ' + when(record.finishedAt);
    const tbody = document.querySelector('#results-table tbody');
    tbody.replaceChildren(...rows.map((result) => row([
      result.variant,
      num(result.batchSize), num(result.batches), decimal.format(result.elapsedMillis), num(result.opsPerSecond),
      result.speedup != null ? decimal.format(result.speedup) + '×' : '',
      checked(result),
    ], [false, true, true, true, true, true, false])));
    const skipped = record.skipped || [];
    document.getElementById('skipped').textContent = skipped.length
      ? 'Skipped: ' + skipped.map((skip) => skip.variant + ' (' + skip.reason + ')').join('; ') : '';
    // Notes explain what numbers alone do not, e.g. how a cluster split a multi-key command.
    document.getElementById('notes').replaceChildren(...rows.filter((result) => result.note).map((result) => {
      const item = document.createElement('li');
      item.textContent = result.variant + ': ' + result.note;
      return item;
    }));
    draw(record.kind, rows);
  }

  function checked(result) {
    if (result.verified != null) return num(result.verified) + ' verified';
    if (result.hits != null) return num(result.hits) + ' hits, ' + num(result.misses) + ' misses';
    if (result.popped != null) return num(result.popped) + ' popped, ' + num(result.empty) + ' empty';
    if (result.pongs != null) return num(result.pongs) + ' PONG';
    if (result.written != null) return num(result.written) + ' written';
    return '';
  }

  // A bar chart of ops/s per variant with the speedup against the loop beside it; for a sweep, a line of ops/s
  // against batch size on a log axis, since sizes grow by factors of ten.
  function draw(runKind, rows) {
    const canvas = document.getElementById('chart');
    if (chart) {
      chart.destroy();
    }
    const common = {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      plugins: { legend: { position: 'bottom' } },
    };
    if (runKind === 'sweep') {
      chart = new Chart(canvas, {
        type: 'line',
        data: {
          datasets: [{
            label: 'ops/s (pipelined)',
            data: rows.map((result) => ({ x: result.batchSize, y: result.opsPerSecond })),
            borderColor: '#c6302b',
            backgroundColor: '#c6302b',
            tension: 0,
          }],
        },
        options: {
          ...common,
          scales: {
            x: {
              type: 'logarithmic',
              title: { display: true, text: 'batch size (commands per pipeline)' },
              // Label powers of ten only; a log axis otherwise labels every minor tick.
              ticks: { callback: (value) => (Number.isInteger(Math.log10(value)) ? whole.format(value) : '') },
            },
            y: { beginAtZero: true, title: { display: true, text: 'ops/s' } },
          },
        },
      });
    } else {
      const datasets = [{
        label: 'ops/s',
        data: rows.map((result) => result.opsPerSecond),
        backgroundColor: '#c6302b',
        yAxisID: 'y',
      }];
      const scales = { y: { beginAtZero: true, title: { display: true, text: 'ops/s' } } };
      if (rows.some((result) => result.speedup != null)) {
        datasets.push({
          label: 'speedup against the loop (×)',
          data: rows.map((result) => result.speedup),
          backgroundColor: '#7f8c99',
          yAxisID: 'speedup',
        });
        scales.speedup = {
          position: 'right', beginAtZero: true, grid: { drawOnChartArea: false },
          title: { display: true, text: 'speedup ×' },
        };
      }
      chart = new Chart(canvas, {
        type: 'bar',
        data: { labels: rows.map((result) => result.variant), datasets },
        options: { ...common, scales },
      });
    }
    canvas.dataset.chart = chart.config.type;
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
      const tbody = document.querySelector('#history tbody');
      tbody.replaceChildren(...list.runs.map((record) => {
        const best = Math.max(0, ...(record.results || []).map((result) => result.opsPerSecond));
        const tr = row([
          when(record.startedAt || record.createdAt), record.kind,
          record.request.operation.toUpperCase() + (record.request.mode ? ' ' + record.request.mode : ''),
          num(record.request.count), record.status, Math.floor(record.progress.percent) + '%',
          best > 0 ? num(best) : '',
        ], [false, false, false, true, false, true, true]);
        tr.children[4].className = 'st-' + record.status;
        tr.dataset.id = record.id;
        if (current && current.id === record.id) {
          tr.classList.add('current');
        }
        tr.addEventListener('click', () => show(record.id));
        return tr;
      }));
    } catch (failure) {
      banner('The app does not answer: ' + failure.message);
    }
  }

  async function show(id) {
    const response = await fetch('/runs/' + id, { headers: { Accept: 'application/json' }, cache: 'no-store' });
    const record = await response.json();
    if (!response.ok) {
      showProblem(record);
      return;
    }
    if (!FINAL.includes(record.status)) {
      hideResults();
      follow(record);
      return;
    }
    showProgress(record);
    showProblem(record.problem || null);
    if (record.status === 'DONE') {
      showResults(record);
    } else {
      hideResults();
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

  function row(cells, numeric) {
    const tr = document.createElement('tr');
    cells.forEach((text, index) => {
      const td = document.createElement('td');
      td.textContent = text;
      if (numeric[index]) {
        td.className = 'num';
      }
      tr.appendChild(td);
    });
    return tr;
  }

  function num(value) {
    return value == null ? '' : whole.format(value);
  }

  function when(instant) {
    return instant ? new Date(instant).toLocaleString() : '';
  }

  // Bounds and defaults come from the server's parameter catalogue (lab.limits.*), not from this page.
  function showLimits(parameters) {
    parameters.forEach((parameter) => {
      const field = form.querySelector('input#' + parameter.name);
      if (!field) {
        return;
      }
      if (field.type === 'number') {
        if (parameter.minimum !== undefined) {
          field.min = parameter.minimum;
        }
        if (parameter.maximum !== undefined) {
          field.max = parameter.maximum;
        }
      }
      const range = (parameter.minimum !== undefined) ? parameter.minimum + ' to ' + parameter.maximum : '';
      field.title = parameter.description + (range ? ' (' + range + ')' : '');
      if (field.placeholder && parameter.default !== undefined) {
        field.placeholder = 'default ' + parameter.default + (range ? ', ' + range : '');
      }
    });
    const list = document.getElementById('query-parameters');
    if (list) {
      list.textContent = parameters.filter((parameter) => parameter.in === 'query')
        .map((parameter) => parameter.name).join(', ') + '.';
    }
  }

  async function showTopology() {
    try {
      // no-store: the browser may hold this very URL as the HTML page, which does not vary by Accept.
      const response = await fetch('/', { headers: { Accept: 'application/json' }, cache: 'no-store' });
      const index = await response.json();
      document.getElementById('topology').textContent = 'Set up for ' + index.topology.kind + ' Redis at '
        + index.topology.nodes.join(', ') + '.';
      showLimits(index.parameters || []);
    } catch (failure) {
      // Only decoration.
    }
  }

  form.addEventListener('submit', start);
  form.querySelectorAll('input[name="kind"]').forEach((radio) => radio.addEventListener('change', () => showFieldsFor(kind())));
  cancelButton.addEventListener('click', cancel);
  document.getElementById('refresh-history').addEventListener('click', loadHistory);
  showFieldsFor(kind());
  showTopology();
  loadHistory();
}());
