// A child for child-run tests: says it is ready, then does what the request asks.
process.once('message', (request) => {
  process.send({ type: 'ready' });
  if (request.behave === 'hang') {
    process.send({ type: 'progress', value: { phase: 'search', buildMs: 12 } });
    setInterval(() => {}, 1000);
  } else if (request.behave === 'answer')
    process.send({ type: 'result', value: { echo: request.value } }, () => process.exit(0));
  else if (request.behave === 'wait-for-go')
    process.on('message', (message) => {
      if (message.type === 'go') process.send({ type: 'result', value: { went: true } }, () => process.exit(0));
    });
  else if (request.behave === 'crash') process.exit(3);
  else if (request.behave === 'fail') process.send({ type: 'error', message: 'no catalog' }, () => process.exit(0));
});
