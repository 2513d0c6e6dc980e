// Placeholder: the incident model is being written (issue 6).
