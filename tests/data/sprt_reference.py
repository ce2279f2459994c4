# Independent reference for src/referee/statistics/sprt.rs tests: the GSPRT log-likelihood
# ratio (Van den Bergh) solved by plain bisection. Run: python3 tests/data/sprt_reference.py
import math
def reg(c): return 1e-3 if c==0 else float(c)
def bisect(f,a,b):
    # f(a)>0 (pole +inf at a), f(b)<0
    lo,hi=a,b
    for _ in range(400):
        m=(lo+hi)/2
        if m==lo or m==hi: break
        if f(m)>0: lo=m
        else: hi=m
    return (lo+hi)/2
def theta(d,p):
    a=-1/max(d); b=-1/min(d)
    f=lambda x: sum(pi*di/(1+x*di) for pi,di in zip(p,d))
    return bisect(f,a,b)
def mle_log(sc,p,s):
    d=[a-s for a in sc]; t=theta(d,p)
    return [pi/(1+t*di) for pi,di in zip(p,d)]
def mle_norm(sc,p,mref,ts):
    q=[1/len(sc)]*len(sc)
    for _ in range(10000):
        mu=sum(a*x for a,x in zip(sc,q)); var=sum(x*(a-mu)**2 for a,x in zip(sc,q)); sg=math.sqrt(var)
        phi=[a-mref-0.5*ts*sg*(1+((a-mu)/sg)**2) for a in sc]
        t=theta(phi,p)
        new=[pi/(1+t*f) for pi,f in zip(p,phi)]
        diff=max(abs(x-y) for x,y in zip(new,q)); q=new
        if diff<1e-14: break
    return q
def llr(counts,sc,model,e0,e1,scale):
    c=[reg(x) for x in counts]; n=sum(c); p=[x/n for x in c]
    if model=='log':
        ls=lambda e:1/(1+10**(-e/400))
        p0=mle_log(sc,p,ls(e0)); p1=mle_log(sc,p,ls(e1))
    else:
        k=800/math.log(10)
        p0=mle_norm(sc,p,0.5,scale*e0/k); p1=mle_norm(sc,p,0.5,scale*e1/k)
    return n*sum(pi*(math.log(b)-math.log(a)) for pi,a,b in zip(p,p0,p1))
W,L,D=123,101,210
pen=[7,30,100,45,15]
print("REF_NORM_WDL", repr(llr([L,D,W],[0,.5,1],'norm',0,5,1)))
print("REF_LOGI_WDL", repr(llr([L,D,W],[0,.5,1],'log',0,5,1)))
print("REF_NORM_PENTA", repr(llr(pen,[0,.25,.5,.75,1],'norm',0,5,math.sqrt(2))))
print("REF_LOGI_PENTA", repr(llr(pen,[0,.25,.5,.75,1],'log',0,5,math.sqrt(2))))
print("REF_LOGI_ZEROS", repr(llr([0,0,5],[0,.5,1],'log',0,5,1)))
