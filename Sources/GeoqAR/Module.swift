// Replaced as the module is written (issue 4).
