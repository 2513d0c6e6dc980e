// Replaced as the tests are written (issue 4).
