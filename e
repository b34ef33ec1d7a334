strata validate: --fabric is given twice; give it once
see 'strata validate --help'
