"""pinet's verification engine (Python standard library only).

verdict    the cosim verdict line and formal.sh's proof line: grammars and the one parser
job        one object per run x seed: its command, files and results
launcher   Launcher (launch, poll, kill, the one verdict scan), LocalLauncher, the factory
slurm      SlurmLauncher: one array task per job on a Slurm cluster
scheduler  the -j loop, the progress ticker and the failing runs' re-run alone
outputs    the summary table, the JUnit XML and the sign-off rows, written from the jobs
verify     the regression flow behind scripts/verify.sh
formal     the proof flow behind scripts/formal.sh (one job per proof group)
"""
