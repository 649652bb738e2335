const express = require('express');
const app = express();
app.post('/neworder', (req, res) => res.sendStatus(200));
app.listen(3000);
